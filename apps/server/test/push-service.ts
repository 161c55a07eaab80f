/**
 * A Web Push service on loopback for tests, and the browser's side of a subscription: a P-256 key
 * pair and an auth secret, as PushManager.subscribe makes them. The service takes each POST
 * (RFC 8030), checks its VAPID Authorization (RFC 8292: an ES256 JWT whose `aud` is the service's
 * origin, signed by the key `k` names) and decrypts the aes128gcm body (RFC 8291) with the private
 * key of the subscription it was sent to, written here with node:crypto alone (not the library the
 * server encrypts with). Paths it answers 410 for stand for subscriptions that expired.
 */
import { createDecipheriv, createECDH, createPublicKey, hkdfSync, randomBytes, verify } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Device {
  endpoint: string;
  keys: { p256dh: string; auth: string };
  /** The browser's private side. */
  ecdh: ReturnType<typeof createECDH>;
  authSecret: Buffer;
}

export interface Received {
  path: string;
  headers: IncomingMessage['headers'];
  /** The VAPID public key the request was signed with (`k`). */
  vapidKey: string;
  /** The JWT's claims, after its signature was verified. */
  claims: { aud: string; exp: number; sub: string };
  /** The decrypted payload, parsed. */
  message: { title: string; body: string; url: string; tag: string | null };
  /** What the service answered. */
  status: number;
}

const b64u = (buffer: Buffer) => buffer.toString('base64url');

/** RFC 8291 §3.4: the receiver's decryption of one aes128gcm record. */
export function decryptAes128gcm(body: Buffer, device: Pick<Device, 'ecdh' | 'authSecret'>): Buffer {
  const salt = body.subarray(0, 16);
  const idLength = body.readUInt8(20);
  const senderKey = body.subarray(21, 21 + idLength);
  const record = body.subarray(21 + idLength);
  const receiverKey = device.ecdh.getPublicKey();
  const shared = device.ecdh.computeSecret(senderKey);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), receiverKey, senderKey]);
  const ikm = Buffer.from(hkdfSync('sha256', shared, device.authSecret, keyInfo, 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(record.subarray(record.length - 16));
  const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
  // The last record: the content, then the delimiter 0x02, then zero padding.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (padded[end] !== 2) throw new Error('No last-record delimiter');
  return padded.subarray(0, end);
}

/** RFC 8292: `vapid t=<jwt>, k=<key>`, the JWT's ES256 signature checked against k. */
export function verifyVapid(authorization: string | undefined): { key: string; claims: Received['claims'] } {
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(authorization ?? '');
  if (!match) throw new Error(`Not a VAPID Authorization: ${authorization}`);
  const [, token, key] = match as unknown as [string, string, string];
  const [header, payload, signature] = token.split('.') as [string, string, string];
  const point = Buffer.from(key, 'base64url');
  const publicKey = createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: b64u(point.subarray(1, 33)), y: b64u(point.subarray(33, 65)) },
    format: 'jwk',
  });
  const ok = verify(
    'sha256',
    Buffer.from(`${header}.${payload}`),
    { key: publicKey, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  );
  if (!ok) throw new Error('VAPID signature does not verify');
  const alg = (JSON.parse(Buffer.from(header, 'base64url').toString()) as { alg: string }).alg;
  if (alg !== 'ES256') throw new Error(`VAPID JWT alg is ${alg}`);
  return { key, claims: JSON.parse(Buffer.from(payload, 'base64url').toString()) as Received['claims'] };
}

export interface PushService {
  origin: string;
  received: Received[];
  /** Requests that failed a check (none expected). */
  refused: string[];
  /** A device subscribed at this service; `gone` ones are answered 410. */
  device(options?: { gone?: boolean }): Device;
  close(): Promise<void>;
}

export async function startPushService(): Promise<PushService> {
  const devices = new Map<string, Device & { gone: boolean }>();
  const received: Received[] = [];
  const refused: string[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '';
      const device = devices.get(path);
      try {
        if (request.method !== 'POST') throw new Error(`${request.method} ${path}`);
        if (!device) throw new Error(`No subscription at ${path}`);
        if (request.headers['content-encoding'] !== 'aes128gcm')
          throw new Error(`Content-Encoding ${request.headers['content-encoding']}`);
        if (!request.headers.ttl) throw new Error('No TTL');
        const { key, claims } = verifyVapid(request.headers.authorization);
        if (claims.aud !== service.origin) throw new Error(`aud ${claims.aud}, not ${service.origin}`);
        if (!(claims.exp * 1000 > Date.now() && claims.exp * 1000 <= Date.now() + 24 * 3600_000 + 60_000))
          throw new Error(`exp ${claims.exp}`);
        const message = JSON.parse(
          decryptAes128gcm(Buffer.concat(chunks), device).toString('utf8'),
        ) as Received['message'];
        const status = device.gone ? 410 : 201;
        received.push({ path, headers: request.headers, vapidKey: key, claims, message, status });
        response.writeHead(status).end();
      } catch (error) {
        refused.push(error instanceof Error ? error.message : String(error));
        response.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const { port } = server.address() as AddressInfo;
  let next = 0;
  const service: PushService = {
    origin: `http://127.0.0.1:${port}`,
    received,
    refused,
    device({ gone = false } = {}) {
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const authSecret = randomBytes(16);
      const path = `/push/${++next}-${randomBytes(6).toString('hex')}`;
      const device = {
        endpoint: `${service.origin}${path}`,
        keys: { p256dh: b64u(ecdh.getPublicKey()), auth: b64u(authSecret) },
        ecdh,
        authSecret,
        gone,
      };
      devices.set(path, device);
      return device;
    },
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
  return service;
}
