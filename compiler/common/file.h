/* file.h - the one whole-file reader of the compiler and the runtime.  */
#ifndef SB_FILE_H
#define SB_FILE_H

#include <stddef.h>

/* The whole of the regular file `path`, NUL-terminated (the NUL is not
 * counted in *len).  Opened with O_NONBLOCK, so a FIFO named by mistake
 * never waits for a writer, and refused unless it is a regular file.
 * NULL with errno: open's or read's, EINVAL (not a regular file), EFBIG
 * (more than `max` bytes; 0: no limit).  The caller reports: the reader
 * never prints.  */
char *sb_file_read(const char *path, size_t max, size_t *len);

#endif
