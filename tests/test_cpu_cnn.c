/* CPU tests of the convolutional layer: the output sizes (padding, strides, a filter larger than the image), the
 * layers refused, the reference against a hand-worked output (two maps, a stride, the padding skipped), the
 * tolerance, and the workload's table. */
#include <math.h>
#include <string.h>

#include "workloads/cnn.h"
#include "testing.h"

int main(void)
{
    climb_cnn_layer l = {64, 64, 56, 56, 64, 3, 3, 1, 1, 1, 1, 0, 0};
    EXPECT(climb_cnn_layer_check(&l) == 0 && l.p == 56 && l.q == 56);
    l = (climb_cnn_layer){16, 3, 224, 224, 64, 7, 7, 2, 2, 3, 3, 0, 0};
    EXPECT(climb_cnn_layer_check(&l) == 0 && l.p == 112 && l.q == 112);
    l = (climb_cnn_layer){1, 1, 4, 4, 1, 7, 7, 1, 1, 0, 0, 0, 0}; /* unpadded filter larger than the image */
    EXPECT(climb_cnn_layer_check(&l) == 0 && l.p == 0 && l.q == 0);
    l = (climb_cnn_layer){1, 1, 20, 30, 1, 3, 3, 3, 2, 1, 0, 0, 0};
    EXPECT(climb_cnn_layer_check(&l) == 0 && l.p == 7 && l.q == 14);
    l = (climb_cnn_layer){1, 1, 5, 5, 1, 0, 3, 1, 1, 0, 0, 0, 0};
    EXPECT(climb_cnn_layer_check(&l) == -1); /* r 0 */
    l = (climb_cnn_layer){1, 1, 5, 5, 1, 3, 3, 0, 1, 0, 0, 0, 0};
    EXPECT(climb_cnn_layer_check(&l) == -1); /* stride 0 */
    l = (climb_cnn_layer){1, 1, 5, 5, 1, 3, 3, 1, 1, -1, 0, 0, 0};
    EXPECT(climb_cnn_layer_check(&l) == -1); /* negative pad */
    l = (climb_cnn_layer){65536, 1, 256, 256, 1, 1, 1, 1, 1, 0, 0, 0, 0};
    EXPECT(climb_cnn_layer_check(&l) == -1); /* x of 2^32 elements */

    /* two 3 x 4 maps, one 2 x 2 filter pair, stride 2, pad 1: p = (3 + 2 - 2) / 2 + 1 = 2, q = (4 + 2 - 2) / 2 + 1 = 3 */
    const float x[24] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, /* c = 0 */
                         -1, -2, -3, -4, -5, -6, -7, -8, -9, -10, -11, -12};
    const float w[8] = {1, 2, 3, 4, 10, 20, 30, 40};
    l = (climb_cnn_layer){1, 2, 3, 4, 1, 2, 2, 2, 2, 1, 1, 0, 0};
    EXPECT(climb_cnn_layer_check(&l) == 0 && l.p == 2 && l.q == 3);
    double abs;
    /* (p, q) = (0, 0): rows -1, 0 and columns -1, 0: only (0, 0) is inside, meeting w[.][1][1] */
    EXPECT(climb_cnn_ref_at(&l, x, w, 0, 0, 0, 0, &abs) == 4 * 1 + 40 * -1 && abs == 44);
    /* (1, 1): rows 1, 2 and columns 1, 2, all inside */
    double want = 1 * 6 + 2 * 7 + 3 * 10 + 4 * 11 + 10 * -6 + 20 * -7 + 30 * -10 + 40 * -11;
    EXPECT(climb_cnn_ref_at(&l, x, w, 0, 0, 1, 1, NULL) == want);
    /* (1, 2): columns 3, 4: the fourth column is padding */
    want = 1 * 8 + 3 * 12 + 10 * -8 + 30 * -12;
    EXPECT(climb_cnn_ref_at(&l, x, w, 0, 0, 1, 2, NULL) == want);
    EXPECT(climb_cnn_tolerance(&l, 1.0) == 1.01 * 10 * 0x1p-24);

    const climb_workload *wl = &climb_cnn_workload;
    char msg[2000];
    EXPECT_MSG(climb_workload_validate(wl, msg, sizeof msg) == 0, "%s", msg);
    EXPECT(climb_best_rung(wl) >= 0 && climb_workload_ndims(wl) == 8);
    char label[200];
    climb_case_label(wl, &wl->bench_shapes[0], label, sizeof label);
    EXPECT_MSG(strcmp(label, "N64 C64 56x56 K64 3x3 stride 1") == 0, "%s", label);
    return test_finish("test_cpu_cnn");
}
