/**
 * What summary.md's link to report.html may be: an http(s) URL (a CI artifact) or a relative
 * path. A javascript: or data: link would run script in a renderer that does not sanitise;
 * the command line refuses it (--report-url, RETRYSTORM_REPORT_URL) and summary.md never
 * writes one. Its own module, importing nothing, so the command line's entry can check it
 * without loading the writers.
 */

/** An http(s) URL, or a relative path without a scheme. */
export function isReportLink(url: string): boolean {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url.trim());
  return scheme === null || /^https?$/i.test(scheme[1]);
}
