/*
 * test_palette.c: the colours a report tells drives apart by (palette.h,
 * PAL_SERIES) stay apart for people with the common colour-vision
 * deficiencies: seen through a simulation of full protanopia,
 * deuteranopia and tritanopia, and with normal vision, every two of them
 * differ by at least MIN_DELTA_E (CIE76, in CIE L*a*b*; about 2.3 is
 * just noticeable, 10 reads as another colour).
 *
 * The simulation is Machado, Oliveira and Fernandes's (2009, "A
 * Physiologically-based Model for Simulation of Color Vision
 * Deficiency", IEEE TVCG 15(6)): a 3x3 matrix on linear RGB, severity 1.0;
 * the matrices below are the paper's for that severity. sRGB to linear and
 * to XYZ (D65) and L*a*b* are the standard formulas.
 *
 * The palette before Okabe and Ito's (Tableau's blue, orange, green, red,
 * purple) fails this: orange and green 4.6 apart for a protanope, green
 * and red 7.3 for a deuteranope (test_old_palette_fails keeps the check
 * honest).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "palette.h"

#define MIN_DELTA_E	10.0

static const double cvd[][3][3] = {
	{ { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } },		/* normal */
	{ { 0.152286, 1.052583, -0.204868 },			/* protanopia */
	  { 0.114503, 0.786281, 0.099216 },
	  { -0.003882, -0.048116, 1.051998 } },
	{ { 0.367322, 0.860646, -0.227968 },			/* deuteranopia */
	  { 0.280085, 0.672501, 0.047413 },
	  { -0.011820, 0.042940, 0.968881 } },
	{ { 1.255528, -0.076749, -0.178779 },			/* tritanopia */
	  { -0.078411, 0.930809, 0.147602 },
	  { 0.004733, 0.691367, 0.303900 } },
};
static const char *const cvd_name[] = { "normal", "protanopia",
	"deuteranopia", "tritanopia" };

static double
linear(unsigned v)
{
	double	c = v / 255.0;

	return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4);
}

static double
lab_f(double t)
{
	return t > 0.008856 ? cbrt(t) : 7.787 * t + 16.0 / 116;
}

/* "#RRGGBB" seen through matrix m, in L*a*b*. */
static void
seen(const char *hex, const double m[3][3], double lab[3])
{
	unsigned	r, g, b;
	double		in[3], l[3], x, y, z;
	int		i;

	assert_int_equal(sscanf(hex, "#%2x%2x%2x", &r, &g, &b), 3);
	in[0] = linear(r);
	in[1] = linear(g);
	in[2] = linear(b);
	for (i = 0; i < 3; i++) {
		l[i] = m[i][0] * in[0] + m[i][1] * in[1] + m[i][2] * in[2];
		l[i] = l[i] < 0 ? 0 : l[i] > 1 ? 1 : l[i];
	}
	x = 0.4124 * l[0] + 0.3576 * l[1] + 0.1805 * l[2];
	y = 0.2126 * l[0] + 0.7152 * l[1] + 0.0722 * l[2];
	z = 0.0193 * l[0] + 0.1192 * l[1] + 0.9505 * l[2];
	lab[0] = 116 * lab_f(y) - 16;
	lab[1] = 500 * (lab_f(x / 0.95047) - lab_f(y));
	lab[2] = 200 * (lab_f(y) - lab_f(z / 1.08883));
}

/* The least distance between two of the colours, for each vision. */
static double
least_delta(const char *const *c, size_t n, size_t vision, size_t *a,
    size_t *b)
{
	double	la[3], lb[3], d, least = INFINITY;
	size_t	i, j;

	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++) {
			seen(c[i], cvd[vision], la);
			seen(c[j], cvd[vision], lb);
			d = sqrt(pow(la[0] - lb[0], 2) + pow(la[1] - lb[1], 2) +
			    pow(la[2] - lb[2], 2));
			if (d < least) {
				least = d;
				*a = i;
				*b = j;
			}
		}
	return least;
}

static void
test_series_apart(void **state)
{
	static const char *const series[] = { PAL_SERIES };
	size_t	v, a = 0, b = 0;
	double	d;

	(void)state;
	for (v = 0; v < sizeof(cvd) / sizeof(*cvd); v++) {
		d = least_delta(series, sizeof(series) / sizeof(*series), v,
		    &a, &b);
		if (d < MIN_DELTA_E)
			fail_msg("%s: %s and %s only %.1f apart", cvd_name[v],
			    series[a], series[b], d);
	}
}

static void
test_old_palette_fails(void **state)
{
	static const char *const old[] = { "#1F77B4", "#FF7F0E", "#2CA02C",
	    "#D62728", "#9467BD" };
	size_t	a = 0, b = 0;

	(void)state;
	assert_true(least_delta(old, 5, 1, &a, &b) < MIN_DELTA_E);
	assert_true(least_delta(old, 5, 2, &a, &b) < MIN_DELTA_E);
	/* with normal vision they are apart: the simulation is what fails it */
	assert_true(least_delta(old, 5, 0, &a, &b) >= MIN_DELTA_E);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_series_apart),
		cmocka_unit_test(test_old_palette_fails),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
