// qrcode's PNG renderer (qrcode 1.5), which its public API only offers behind a stream: drawn here
// to a pngjs image that PNG.sync.write encodes, so a deposit's answer is built inside its transaction.
declare module 'qrcode/lib/renderer/png.js' {
  import type { QRCode, QRCodeToDataURLOptions } from 'qrcode';
  export function render(
    qrData: QRCode,
    options?: QRCodeToDataURLOptions,
  ): {
    width: number;
    height: number;
    data: Buffer;
    gamma: number;
  };
}
