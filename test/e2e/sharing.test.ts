// Sharing and notifications end to end: share links (a revoked one stays readable) and following a
// question, the SDK against the mock over real HTTP.
import { describe, expect, it } from 'vitest';
import { ConflictError, NotFoundError, PermissionDeniedError } from '../../src/index.js';
import { binary, KEYS, useOrgMock } from './_org.js';

const h = useOrgMock();
const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();

describe('questions.shareLinks', () => {
  it('creates, reads, lists, edits and deletes share links', async () => {
    const strict = h.connect(KEYS.admin, { validateResponses: true });
    const q = await strict.questions.create(binary);
    const expiresAt = iso(h.mock.clock.now() + 24 * HOUR);
    const link = await strict.questions.shareLinks.create(q.id, { label: 'board pack', expiresAt });
    expect(link).toMatchObject({ questionId: q.id, label: 'board pack', revoked: false, revokedAt: null, expiresAt, createdAt: iso(h.mock.clock.now()) });
    expect(link.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/share\/[\w-]{20,}$/);
    const plain = await strict.questions.shareLinks.create(q.id);
    expect(plain).toMatchObject({ label: null, expiresAt: null });
    expect(plain.url).not.toBe(link.url);
    expect(await strict.questions.shareLinks.retrieve(q.id, link.id)).toEqual(link);
    expect((await strict.questions.shareLinks.list(q.id)).data.map((l) => l.id)).toEqual([plain.id, link.id]);

    h.mock.clock.advance(60_000);
    const edited = await strict.questions.shareLinks.update(q.id, link.id, { label: null, expiresAt: null });
    expect(edited).toMatchObject({ label: null, expiresAt: null, updatedAt: iso(h.mock.clock.now()), createdAt: link.createdAt });
    await strict.questions.shareLinks.delete(q.id, plain.id);
    await expect(strict.questions.shareLinks.retrieve(q.id, plain.id)).rejects.toBeInstanceOf(NotFoundError);
    expect((await strict.questions.shareLinks.list(q.id)).data.map((l) => l.id)).toEqual([link.id]);
  });

  it('keeps a revoked link readable, as revoked; revoking again changes nothing; it can no longer change', async () => {
    const q = await h.client.questions.create(binary);
    const link = await h.client.questions.shareLinks.create(q.id);
    h.mock.clock.advance(1_000);
    const revoked = await h.client.questions.shareLinks.revoke(q.id, link.id);
    expect(revoked).toMatchObject({ id: link.id, url: link.url, revoked: true, revokedAt: iso(h.mock.clock.now()) });
    h.mock.clock.advance(1_000);
    expect(await h.client.questions.shareLinks.revoke(q.id, link.id)).toEqual(revoked);
    expect(await h.client.questions.shareLinks.retrieve(q.id, link.id)).toEqual(revoked);
    expect((await h.client.questions.shareLinks.list(q.id)).data).toEqual([revoked]);
    const err = await h.client.questions.shareLinks.update(q.id, link.id, { label: 'again' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConflictError);
    expect((err as ConflictError).message).toContain('revoked');
  });

  it('belongs to the question: other questions and other people see no link', async () => {
    const [q, other] = await Promise.all([h.client.questions.create(binary), h.client.questions.create({ ...binary, title: 'Other' })]);
    const link = await h.client.questions.shareLinks.create(q.id);
    await expect(h.client.questions.shareLinks.retrieve(other.id, link.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(h.connect(KEYS.other).questions.shareLinks.list(q.id)).rejects.toBeInstanceOf(NotFoundError);
    // Every share-link operation needs questions:write, reads included.
    await expect(h.connect(KEYS.reader).questions.shareLinks.list(q.id)).rejects.toBeInstanceOf(PermissionDeniedError);
  });

  it('refuses a bad expiresAt: the format before sending, a past time on the service', async () => {
    const q = await h.client.questions.create(binary);
    await h.refused(h.client.questions.shareLinks.create(q.id, { expiresAt: 'next week' }), 'expiresAt', /ISO 8601/);
    await h.refused(h.client.questions.shareLinks.update(q.id, 'l1', { label: 5 as never }), 'label');
    const past = iso(h.mock.clock.now() - 1);
    const res = await h.raw('POST', `/questions/${q.id}/share-links`, { expiresAt: past });
    expect(res).toMatchObject({ status: 400, body: { error: { message: 'expiresAt: must be in the future' } } });
    expect((await h.raw('POST', `/questions/${q.id}/share-links`, { expiresAt: 'soon' })).body.error?.message).toMatch(/^expiresAt: must be an ISO 8601 timestamp/);
    expect((await h.client.questions.shareLinks.list(q.id)).data).toEqual([]);
  });
});

describe('questions.subscription', () => {
  it('follows and unfollows a question; following again changes nothing', async () => {
    const strict = h.connect(KEYS.admin, { validateResponses: true });
    const q = await strict.questions.create({ ...binary, visibility: 'organization' });
    await expect(strict.questions.subscription.retrieve(q.id)).rejects.toBeInstanceOf(NotFoundError);
    const sub = await strict.questions.subscription.follow(q.id);
    expect(sub).toMatchObject({ follows: { type: 'question', id: q.id, title: q.title }, createdAt: expect.any(String) });
    h.mock.clock.advance(1_000);
    expect(await strict.questions.subscription.follow(q.id)).toEqual(sub);
    expect(await strict.questions.subscription.retrieve(q.id)).toEqual(sub);
    // Each person has their own subscription.
    const member = h.connect(KEYS.member);
    await expect(member.questions.subscription.retrieve(q.id)).rejects.toBeInstanceOf(NotFoundError);
    expect((await member.questions.subscription.follow(q.id)).id).not.toBe(sub.id);
    await strict.questions.subscription.unfollow(q.id);
    await expect(strict.questions.subscription.retrieve(q.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(strict.questions.subscription.unfollow(q.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(member.questions.subscription.retrieve(q.id)).resolves.toBeDefined();
  });

  it('reads with questions:read, follows with questions:write, and only questions you can see', async () => {
    const q = await h.client.questions.create(binary);
    await h.client.questions.subscription.follow(q.id);
    const reader = h.connect(KEYS.reader);
    await expect(reader.questions.subscription.retrieve(q.id)).resolves.toMatchObject({ follows: { id: q.id } });
    await expect(reader.questions.subscription.follow(q.id)).rejects.toBeInstanceOf(PermissionDeniedError);
    await expect(h.connect(KEYS.other).questions.subscription.follow(q.id)).rejects.toBeInstanceOf(NotFoundError);
  });
});
