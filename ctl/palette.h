/*
 * palette.h: the colours and fonts of ssdctl's graphs, whichever program
 * draws them (librrd for the archive, gnuplot for the checkpoints), so
 * that they read as one set.
 */
#ifndef SSDT_PALETTE_H
#define SSDT_PALETTE_H

#define BLUE		"#1F77B4"
#define DARKBLUE	"#0D4A80"
#define GREEN		"#2CA02C"
#define DARKGREEN	"#176117"
#define ORANGE		"#FF7F0E"
#define RED		"#D62728"
#define PURPLE		"#9467BD"
#define DARKPURPLE	"#5B3A80"

#define PAL_FONT	"DejaVu Sans"
#define PAL_FONT_SIZE	"8"	/* points */
#define PAL_TITLE_SIZE	"11"
#define PAL_INK		"#222222"	/* text */
#define PAL_AXIS	"#666666"
#define PAL_GRID	"#DDDDDD"

#endif
