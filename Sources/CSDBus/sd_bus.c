#include "CSDBus.h"
#include "CDynamicLibrary.h"

#define SD_BUS_FUNCTIONS(FUNCTION, PROCEDURE) \
    FUNCTION(int, sd_bus_add_fallback, (sd_bus *bus, sd_bus_slot **slot, const char *prefix, sd_bus_message_handler_t callback, void *userdata), (bus, slot, prefix, callback, userdata)) \
    FUNCTION(int, sd_bus_add_match, (sd_bus *bus, sd_bus_slot **slot, const char *match, sd_bus_message_handler_t callback, void *userdata), (bus, slot, match, callback, userdata)) \
    FUNCTION(int, sd_bus_call_async, (sd_bus *bus, sd_bus_slot **slot, sd_bus_message *m, sd_bus_message_handler_t callback, void *userdata, uint64_t usec), (bus, slot, m, callback, userdata, usec)) \
    FUNCTION(sd_bus*, sd_bus_flush_close_unref, (sd_bus *bus), (bus)) \
    FUNCTION(int, sd_bus_get_events, (sd_bus *bus), (bus)) \
    FUNCTION(int, sd_bus_get_fd, (sd_bus *bus), (bus)) \
    FUNCTION(int, sd_bus_get_timeout, (sd_bus *bus, uint64_t *timeout_usec), (bus, timeout_usec)) \
    FUNCTION(int, sd_bus_get_unique_name, (sd_bus *bus, const char **unique), (bus, unique)) \
    FUNCTION(int, sd_bus_message_append_array, (sd_bus_message *m, char type, const void *ptr, size_t size), (m, type, ptr, size)) \
    FUNCTION(int, sd_bus_message_append_basic, (sd_bus_message *m, char type, const void *p), (m, type, p)) \
    FUNCTION(int, sd_bus_message_close_container, (sd_bus_message *m), (m)) \
    FUNCTION(int, sd_bus_message_enter_container, (sd_bus_message *m, char type, const char *contents), (m, type, contents)) \
    FUNCTION(int, sd_bus_message_exit_container, (sd_bus_message *m), (m)) \
    FUNCTION(const sd_bus_error*, sd_bus_message_get_error, (sd_bus_message *m), (m)) \
    FUNCTION(const char*, sd_bus_message_get_interface, (sd_bus_message *m), (m)) \
    FUNCTION(const char*, sd_bus_message_get_member, (sd_bus_message *m), (m)) \
    FUNCTION(const char*, sd_bus_message_get_path, (sd_bus_message *m), (m)) \
    FUNCTION(const char*, sd_bus_message_get_sender, (sd_bus_message *m), (m)) \
    FUNCTION(int, sd_bus_message_is_method_error, (sd_bus_message *m, const char *name), (m, name)) \
    FUNCTION(int, sd_bus_message_new_method_call, (sd_bus *bus, sd_bus_message **m, const char *destination, const char *path, const char *interface, const char *member), (bus, m, destination, path, interface, member)) \
    FUNCTION(int, sd_bus_message_new_method_return, (sd_bus_message *call, sd_bus_message **m), (call, m)) \
    FUNCTION(int, sd_bus_message_new_signal, (sd_bus *bus, sd_bus_message **m, const char *path, const char *interface, const char *member), (bus, m, path, interface, member)) \
    FUNCTION(int, sd_bus_message_open_container, (sd_bus_message *m, char type, const char *contents), (m, type, contents)) \
    FUNCTION(int, sd_bus_message_peek_type, (sd_bus_message *m, char *type, const char **contents), (m, type, contents)) \
    FUNCTION(int, sd_bus_message_read_array, (sd_bus_message *m, char type, const void **ptr, size_t *size), (m, type, ptr, size)) \
    FUNCTION(int, sd_bus_message_read_basic, (sd_bus_message *m, char type, void *p), (m, type, p)) \
    FUNCTION(sd_bus_message*, sd_bus_message_unref, (sd_bus_message *m), (m)) \
    FUNCTION(int, sd_bus_new, (sd_bus **ret), (ret)) \
    FUNCTION(int, sd_bus_open_system, (sd_bus **ret), (ret)) \
    FUNCTION(int, sd_bus_process, (sd_bus *bus, sd_bus_message **r), (bus, r)) \
    FUNCTION(int, sd_bus_reply_method_error, (sd_bus_message *call, const sd_bus_error *e), (call, e)) \
    FUNCTION(int, sd_bus_send, (sd_bus *bus, sd_bus_message *m, uint64_t *cookie), (bus, m, cookie)) \
    FUNCTION(int, sd_bus_set_address, (sd_bus *bus, const char *address), (bus, address)) \
    FUNCTION(int, sd_bus_set_bus_client, (sd_bus *bus, int b), (bus, b)) \
    FUNCTION(sd_bus_slot*, sd_bus_slot_unref, (sd_bus_slot *slot), (slot)) \
    FUNCTION(int, sd_bus_start, (sd_bus *bus), (bus)) \
    FUNCTION(sd_bus*, sd_bus_unref, (sd_bus *bus), (bus)) \

/* libsystemd has kept soname major 0 since sd-bus became public. */
MDOC_DYNAMIC_LIBRARY("libsystemd.so.0", SD_BUS_FUNCTIONS)

const char *mdoc_sd_bus_open(void) {
    return mdoc_dynamic_library_open(&mdoc_library) ? NULL : mdoc_library.message;
}
