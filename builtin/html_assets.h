/* SPDX-License-Identifier: MIT */
/*
 * The files the HTML report embeds, made into byte arrays at build time by
 * tools/embed-html.sh (build/gen/html_assets.c):
 *
 *   lib_js    d3 and d3-flame-graph, minified as their packages ship them
 *   lib_css   d3-flame-graph's style sheet
 *   app_js    web/report.js, the page's own script
 *   app_css   web/report.css
 *   notices   the libraries' licence texts, put in an HTML comment
 *
 * Without web/node_modules the lib_* and notices arrays are empty (length
 * 0) and export --format=html says how to get them.
 */
#ifndef CT_HTML_ASSETS_H
#define CT_HTML_ASSETS_H

#include <stddef.h>

extern const unsigned char ct_html_lib_js[];
extern const size_t ct_html_lib_js_len;
extern const unsigned char ct_html_lib_css[];
extern const size_t ct_html_lib_css_len;
extern const unsigned char ct_html_app_js[];
extern const size_t ct_html_app_js_len;
extern const unsigned char ct_html_app_css[];
extern const size_t ct_html_app_css_len;
extern const unsigned char ct_html_notices[];
extern const size_t ct_html_notices_len;

#endif
