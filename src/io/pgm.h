/* Grayscale images in the Netpbm PGM format: the binary P5 and the plain (ASCII) P2, comments anywhere the format
 * allows whitespace in the header, any maxval from 1 to 65535 (two bytes a pixel, most significant first, in a P5
 * above 255). The reader words every error as "file:line: what is wrong" and never crashes on a bad file; the
 * writer writes P5 with maxval 255. The convolution workload's real inputs (`climb bench conv --input x.pgm`). */
#ifndef CLIMB_IO_PGM_H
#define CLIMB_IO_PGM_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Largest image accepted: 2^28 pixels (a side up to 2^20). */
#define CLIMB_PGM_MAX_PIXELS ((size_t)1 << 28)
#define CLIMB_PGM_MAX_SIDE ((size_t)1 << 20)

typedef struct climb_pgm {
    size_t rows, cols;
    unsigned maxval;
    int plain;          /* 1: read from a P2 */
    float *pixels;      /* rows x cols, row-major, each pixel / maxval: in [0, 1] */
} climb_pgm;

/* Reads path into img (pixels malloc'd: free with climb_pgm_free). 0, or -1 with err ("file:line: ..."). */
int climb_pgm_read(const char *path, climb_pgm *img, char *err, size_t errlen);
/* Parses a PGM held in memory (data[0..n)); name stands for the file in messages. */
int climb_pgm_parse(const char *name, const unsigned char *data, size_t n, climb_pgm *img, char *err, size_t errlen);
void climb_pgm_free(climb_pgm *img);
/* The header alone (rows, cols, maxval, plain; pixels NULL), checked as climb_pgm_read checks it: what a dry run
 * needs of an image. 0, or -1 with err. */
int climb_pgm_peek(const char *path, climb_pgm *img, char *err, size_t errlen);

/* Writes rows x cols values (rows ld apart), each clamped to [0, 1] and scaled to 0..255, as a P5 with a comment
 * line. 0, or -1 with err ("path: why"). */
int climb_pgm_write(const char *path, const float *v, size_t rows, size_t cols, size_t ld, const char *comment,
                    char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
