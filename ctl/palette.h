/*
 * palette.h: the colours and fonts of ssdctl's graphs and reports,
 * whichever program draws them (librrd for the archive, gnuplot for the
 * rest), so that they read as one set. The colours are Okabe and Ito's,
 * chosen to stay apart for people with the common colour-vision
 * deficiencies (protanopia, deuteranopia, tritanopia); lines that must be
 * told apart also differ in dash or point.
 */
#ifndef SSDT_PALETTE_H
#define SSDT_PALETTE_H

#define BLUE		"#0072B2"
#define DARKBLUE	"#004A75"
#define GREEN		"#009E73"
#define DARKGREEN	"#00664A"
#define ORANGE		"#E69F00"
#define RED		"#D55E00"	/* vermilion */
#define PURPLE		"#CC79A7"	/* reddish purple */
#define DARKPURPLE	"#8F4B72"
#define SKYBLUE		"#56B4E9"
#define YELLOW		"#F0E442"
#define BROWN		"#8C564B"
#define GREY		"#7F7F7F"
#define BLACK		"#000000"

/* Series told apart by colour alone (a drive each), in order. */
#define PAL_SERIES	BLUE, ORANGE, GREEN, RED, SKYBLUE, PURPLE, \
			DARKBLUE, DARKGREEN

#define PAL_FONT	"DejaVu Sans"
#define PAL_FONT_SIZE	"8"	/* points */
#define PAL_TITLE_SIZE	"11"
#define PAL_INK		"#222222"	/* text */
#define PAL_AXIS	"#666666"
#define PAL_GRID	"#DDDDDD"

#endif
