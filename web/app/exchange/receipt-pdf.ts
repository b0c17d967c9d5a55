/*
 * The receipt PDF (`orderReceiptPdf`) arrives base64-encoded with its file name; the browser
 * saves it through a temporary object URL.
 */

/** The bytes of a base64 string (whitespace ignored). */
export function base64ToBytes(base64: string): Uint8Array<ArrayBuffer> {
  const binary = atob(base64.replace(/\s+/g, ''));
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

/** A file name safe to offer: the server's, without path separators, ending in `.pdf`. */
export function receiptFilename(name: string | null | undefined, fallback: string): string {
  const printable = [...(name ?? '')].filter((char) => char.charCodeAt(0) >= 32).join('');
  const cleaned = printable.replace(/[\\/:*?"<>|]+/g, '-').trim();
  const base = cleaned === '' ? fallback : cleaned;
  return /\.pdf$/i.test(base) ? base : `${base}.pdf`;
}

/** Saves the PDF in the browser as `filename`. */
export function downloadPdf(contentBase64: string, filename: string): void {
  const blob = new Blob([base64ToBytes(contentBase64)], { type: 'application/pdf' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // Long enough for the browser to start the download.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
