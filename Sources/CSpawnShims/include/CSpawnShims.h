#ifndef MDOC_CSPAWN_SHIMS_H
#define MDOC_CSPAWN_SHIMS_H
#include <spawn.h>

/// posix_spawn_file_actions_addchdir_np: the child changes to `path` before it runs its
/// program. glibc declares these three only with _GNU_SOURCE, which Swift's Glibc module does not
/// set.
int mdoc_spawn_file_actions_addchdir(posix_spawn_file_actions_t *actions, const char *path);

/// posix_spawn_file_actions_addclosefrom_np (glibc 2.34): the child closes every descriptor from
/// `lowest` on, whether or not it is close-on-exec.
int mdoc_spawn_file_actions_addclosefrom(posix_spawn_file_actions_t *actions, int lowest);

/// pipe2(fds, O_CLOEXEC): both ends close-on-exec from the start, so no program another thread
/// starts meanwhile inherits them. Returns 0, or -1 with errno set.
int mdoc_pipe_cloexec(int fds[2]);

#endif
