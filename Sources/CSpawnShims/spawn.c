#define _GNU_SOURCE
#include "CSpawnShims.h"
#include <fcntl.h>
#include <unistd.h>

int mdoc_spawn_file_actions_addchdir(posix_spawn_file_actions_t *actions, const char *path) {
    return posix_spawn_file_actions_addchdir_np(actions, path);
}

int mdoc_spawn_file_actions_addclosefrom(posix_spawn_file_actions_t *actions, int lowest) {
    return posix_spawn_file_actions_addclosefrom_np(actions, lowest);
}

int mdoc_pipe_cloexec(int fds[2]) {
    return pipe2(fds, O_CLOEXEC);
}
