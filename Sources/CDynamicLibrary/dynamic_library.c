#include "CDynamicLibrary.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

int mdoc_dynamic_library_open(mdoc_dynamic_library *library) {
    if (atomic_load_explicit(&library->state, memory_order_acquire) != 0) {
        return atomic_load_explicit(&library->state, memory_order_acquire) == 1;
    }
    pthread_mutex_lock(&library->lock);
    if (atomic_load_explicit(&library->state, memory_order_relaxed) == 0) {
        int state = 1;
        /* RTLD_LOCAL: the library's symbols do not join the program's global scope. It stays
         * open for the life of the process. */
        void *handle = dlopen(library->soname, RTLD_NOW | RTLD_LOCAL);
        if (handle == NULL) {
            const char *reason = dlerror();
            snprintf(library->message, sizeof library->message, "%s", reason != NULL ? reason : library->soname);
            state = -1;
        }
        for (size_t index = 0; state == 1 && index < library->count; index++) {
            library->functions[index] = dlsym(handle, library->symbols[index]);
            if (library->functions[index] == NULL) {
                snprintf(library->message, sizeof library->message, "%s has no function %s", library->soname,
                         library->symbols[index]);
                state = -1;
            }
        }
        if (state != 1 && handle != NULL) {
            dlclose(handle);
        }
        atomic_store_explicit(&library->state, state, memory_order_release);
    }
    pthread_mutex_unlock(&library->lock);
    return atomic_load_explicit(&library->state, memory_order_acquire) == 1;
}

void mdoc_dynamic_library_unopened(const mdoc_dynamic_library *library, const char *symbol) {
    fprintf(stderr, "swift-mdoc: %s was called while %s is not open\n", symbol, library->soname);
    abort();
}
