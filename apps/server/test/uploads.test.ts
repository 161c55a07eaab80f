/**
 * Large uploads (a world file) go to a scratch file as they arrive, never into memory: the body is
 * the file, a body past the limit is a 413 that leaves nothing behind, and the file is removed
 * once the answer is sent, whatever the answer.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AppError } from '../src/core/errors.ts';
import type { ScratchFile } from '../src/core/scratch.ts';
import { registerFileUploads, UPLOAD_TOO_LARGE } from '../src/core/scratch.ts';

const MAX = 64 * 1024;

describe('a file upload', () => {
  let app: FastifyInstance;
  const previousTmp = process.env.TMPDIR;
  // Scratch files of this file's own: os.tmpdir() reads TMPDIR (this worker's copy of the env).
  const dir = mkdtempSync(join(tmpdir(), 'md-uploads-test-'));
  const seen: { path: string; content: Buffer }[] = [];
  beforeAll(async () => {
    process.env.TMPDIR = dir;
    app = Fastify();
    app.setErrorHandler((error, _request, reply) =>
      reply.code(error instanceof AppError ? error.status : 500).send({ Error: (error as Error).message }),
    );
    registerFileUploads(app, ['application/octet-stream'], MAX);
    app.post('/upload', async (request) => {
      const file = request.body as ScratchFile;
      seen.push({ path: file.path, content: readFileSync(file.path) });
      return { size: await file.size() };
    });
    app.post('/refuse', async (request) => {
      seen.push({ path: (request.body as ScratchFile).path, content: Buffer.alloc(0) });
      throw new AppError(400, 'not this one');
    });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    if (previousTmp === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previousTmp;
    rmSync(dir, { recursive: true, force: true });
  });

  const send = (url: string, payload: Buffer) =>
    app.inject({ method: 'POST', url, headers: { 'content-type': 'application/octet-stream' }, payload });

  it('is a file on disk holding the body, removed once answered, refused or not', async () => {
    const body = Buffer.alloc(MAX, 7);
    const ok = await send('/upload', body);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ size: MAX });
    expect(seen.at(-1)!.content.equals(body)).toBe(true);
    // Removed after the answer is sent (the onResponse hook), so looked for until then.
    await vi.waitFor(() => expect(existsSync(dirname(seen.at(-1)!.path))).toBe(false));
    expect((await send('/refuse', body)).statusCode).toBe(400);
    await vi.waitFor(() => expect(existsSync(dirname(seen.at(-1)!.path))).toBe(false));
    expect(readdirSync(dir)).toEqual([]);
  });

  it('past the limit is a 413 saying the limit, by its length or as it arrives, and leaves nothing', async () => {
    const before = seen.length;
    const declared = await send('/upload', Buffer.alloc(MAX + 1));
    expect(declared.statusCode).toBe(413);
    expect(declared.json()).toMatchObject({ Error: UPLOAD_TOO_LARGE(MAX) });
    // A body whose length is not declared (chunked) is cut where it passes the limit.
    const chunked = await app.inject({
      method: 'POST',
      url: '/upload',
      headers: { 'content-type': 'application/octet-stream', 'transfer-encoding': 'chunked' },
      payload: Readable.from([Buffer.alloc(MAX), Buffer.alloc(MAX), Buffer.alloc(MAX)]),
    });
    expect(chunked.statusCode).toBe(413);
    expect(seen.length).toBe(before);
    expect(readdirSync(dir)).toEqual([]);
  });
});
