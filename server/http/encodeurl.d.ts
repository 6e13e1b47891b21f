// The types `encodeurl` (jshttp; Express's own Location escaping) does not ship.
declare module 'encodeurl' {
  /** The URL with what a URL may not hold percent-encoded, leaving valid escapes as they are. */
  export default function encodeUrl(url: string): string;
}
