// A QR code of a link, encoded on this page by uqr (nothing leaves the page) and drawn as React SVG:
// a white square (the code plus its 4-module quiet zone) and one path of dark modules, dark on white
// in both themes. No innerHTML and no style attribute (the page's CSP allows neither).

import { useMemo } from 'react';
import { encode } from 'uqr';

/** The quiet zone the QR standard asks for, in modules. */
export const QR_QUIET_ZONE = 4;
/**
 * The densest code drawn: version 25 (117 modules; ≤ 997 bytes at error correction M). Past it the
 * modules get too small for a phone camera across a classroom, and the link is better copied.
 */
export const QR_MAX_VERSION = 25;

/** The dark modules as one path: each horizontal run of dark modules is one rectangle. */
export function qrPath(data: readonly (readonly boolean[])[]): string {
  const parts: string[] = [];
  data.forEach((row, y) => {
    for (let x = 0; x < row.length; x++) {
      if (!row[x]) continue;
      let run = 1;
      while (row[x + run]) run++;
      parts.push(`M${x} ${y}h${run}v1h-${run}z`);
      x += run - 1;
    }
  });
  return parts.join('');
}

export function QrCode({ text, caption }: { text: string; caption: string }) {
  const qr = useMemo(() => {
    try {
      const code = encode(text, { ecc: 'M', border: QR_QUIET_ZONE, maxVersion: QR_MAX_VERSION });
      return { size: code.size, path: qrPath(code.data) };
    } catch {
      return null; // only "Data too long" is possible here
    }
  }, [text]);
  if (!qr) {
    return (
      <p className="small" role="note">
        The link is too long for a QR code ({text.length.toLocaleString('en')} characters; a phone can read about 1,000):
        copy it instead.
      </p>
    );
  }
  const n = qr.size;
  const px = Math.max(200, 2 * n);
  return (
    <figure>
      <svg role="img" aria-label="QR code of the link" data-testid="qr-code" viewBox={`0 0 ${n} ${n}`} width={px} height={px} shapeRendering="crispEdges">
        <rect width={n} height={n} fill="#ffffff" />
        <path d={qr.path} fill="#000000" />
      </svg>
      <figcaption className="small muted">{caption}</figcaption>
    </figure>
  );
}
