/**
 * Web addresses as documents write them: "https://tika.apache.org/", "<https://issues.apache.org/jira/browse/TIKA>",
 * "www.thep.lu.se/public_html/...", "ftp://ftp.example.org/pub". An address ends on a letter, a digit or a slash, not
 * on the stop or bracket after it.
 */
const WEB_ADDRESS = /\b(?:(?:https?|ftp):\/\/|www\.)[^\s<>()"'`]+[\w/]/giu;

/** Whether a text writes a web address. */
export function writesWebAddress(text: string): boolean {
  return text.search(WEB_ADDRESS) >= 0;
}

/** The web addresses a text writes, in order. */
export function webAddresses(text: string): string[] {
  return text.match(WEB_ADDRESS) ?? [];
}

/** The text with each web address it writes replaced by a space: its capitalised parts are no names. */
export function withoutWebAddresses(text: string): string {
  return text.replace(WEB_ADDRESS, ' ');
}
