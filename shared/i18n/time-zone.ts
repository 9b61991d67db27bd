/**
 * Whether a name is a time zone this runtime knows (an IANA name such as `Asia/Shanghai`, or
 * `UTC`): what the web app's browser reports and the service then writes times in. Both read
 * the same IANA database through ICU, so a zone a browser names is one a Worker knows.
 */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}
