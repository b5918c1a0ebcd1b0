/**
 * Getting text and code into one HTML file safely. User text (scenario name, question,
 * descriptions, variant names, the scenario file) goes in as text, never as markup; code and
 * data go into <script> elements, where the only danger is a sequence that ends the element
 * early ("</script") or switches the parser into its odd "script data escaped" state ("<!--").
 */

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text for element content or a quoted attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);
}

/**
 * JavaScript source safe inside <script>…</script>. "\x3C" is "<" in a JS string, template or
 * regular expression (where "</script" and "<!--" can occur in library code), so the meaning
 * of the code does not change; outside those, neither sequence is valid JavaScript anyway.
 */
export function inlineScript(js: string): string {
  return js.replace(/<(\/script|!--)/gi, '\\x3C$1');
}

/** JSON safe inside <script type="application/json">: every "<" becomes \u003c, which JSON.parse reads back as "<". */
export function inlineJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}
