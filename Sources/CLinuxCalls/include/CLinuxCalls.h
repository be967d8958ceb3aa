#ifndef CLINUXCALLS_H
#define CLINUXCALLS_H

// Linux calls for EventLoopIO's platform file that Swift's Glibc module does not export:
// <sys/epoll.h>, <sys/eventfd.h>, and the GNU extensions `accept4` and thread names. Elsewhere (Darwin, which waits with poll) this is empty.
#if defined(__linux__)
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>

/// glibc declares `accept4` only under `_GNU_SOURCE`, which Swift's Glibc module is not built with.
extern int accept4(int fd, struct sockaddr *address, socklen_t *length, int flags);

#include <pthread.h>

/// GNU extensions, declared only under `_GNU_SOURCE`.
extern int pthread_setname_np(pthread_t thread, const char *name);
extern int pthread_getname_np(pthread_t thread, char *name, size_t length);

/// Names the calling thread (the kernel keeps the first 15 bytes).
static inline void clinuxcalls_set_thread_name(const char *name) {
    char shortened[16];
    size_t index = 0;
    for (; name[index] != 0 && index < 15; index++) shortened[index] = name[index];
    shortened[index] = 0;
    pthread_setname_np(pthread_self(), shortened);
}

/// Copies the calling thread's name into `name` (`length` bytes, at least 16).
static inline void clinuxcalls_get_thread_name(char *name, size_t length) {
    if (pthread_getname_np(pthread_self(), name, length) != 0 && length > 0) name[0] = 0;
}

/// Accepts a connection on the listening `fd` as a non-blocking, close-on-exec socket in one call.
static inline int cepoll_accept(int fd) {
    return accept4(fd, 0, 0, SOCK_NONBLOCK | SOCK_CLOEXEC);
}

/// `EPOLLIN`, `EPOLLOUT`, `EPOLLERR`, `EPOLLHUP` and `EPOLLRDHUP` as plain numbers (glibc declares
/// them in an enum, which Swift imports as a type of its own).
static const unsigned int cepoll_in = EPOLLIN;
static const unsigned int cepoll_out = EPOLLOUT;
static const unsigned int cepoll_err = EPOLLERR;
static const unsigned int cepoll_hup = EPOLLHUP;
static const unsigned int cepoll_rdhup = EPOLLRDHUP;
static const int cepoll_cloexec = EPOLL_CLOEXEC;
static const int cepoll_eventfd_flags = EFD_NONBLOCK | EFD_CLOEXEC;
#endif

#endif
