// How a walk over pages notices a loop, on PageWalk itself: a cursor that leads back to a page on
// the way, and only on the way (a page asked for its next page twice, with other cursors, is no
// loop); an offset page that is the page before again.
import { describe, expect, it } from 'vitest';
import { PageWalk } from '../../src/core/pagination.js';

/** A new page each time: a cursor list gives each item once. */
let item = 0;
const page = () => [{ id: item++ }];
/** A page of records with these ids. */
const ids = (...list: number[]) => list.map((id) => ({ id }));

describe('a cursor walk', () => {
  it('stops at a cursor that led to a page on the way', () => {
    const c = PageWalk.start(undefined).next(page(), 'c1').next(page(), 'c2');
    expect(() => c.next(page(), 'c2')).toThrow('the cursor "c2" a second time');
    expect(() => c.next(page(), 'c1')).toThrow('the cursor "c1" a second time');
    expect(() => c.next(page(), 'c3')).not.toThrow();
  });

  it('tells long cursors apart by a digest, and still sees one that comes again', () => {
    const long = (middle: string) => `${'a'.repeat(5000)}${middle}${'z'.repeat(5000)}`;
    const walk = PageWalk.start(undefined).next(page(), long('1')).next(page(), long('2'));
    expect(() => walk.next(page(), long('3'))).not.toThrow();
    expect(() => walk.next(page(), long('1'))).toThrow('a second time');
    // Kept whole up to 256 characters; a digest is never taken for one of those.
    const edge = 'k'.repeat(256);
    const short = PageWalk.start(undefined).next(page(), edge);
    expect(() => short.next(page(), `${edge}k`)).not.toThrow();
    expect(() => short.next(page(), edge)).toThrow('a second time');
  });

  it('counts the cursor a walk started from as on the way', () => {
    const b = PageWalk.start('c0');
    expect(() => b.next(page(), 'c0')).toThrow('a second time');
    expect(() => b.next(page(), 'c1').next(page(), 'c0')).toThrow('a second time');
  });

  it('goes on from a page asked for its next page twice, along either way, and sees loops on each', () => {
    const b = PageWalk.start(undefined).next(page(), 'c1');
    const viaC2 = b.next(page(), 'c2');
    const viaC3 = b.next(page(), 'c3');
    // c2 is not on the way to the page c3 led to, nor c3 on the way through c2.
    expect(() => viaC3.next(page(), 'c2')).not.toThrow();
    expect(() => viaC2.next(page(), 'c3')).not.toThrow();
    expect(() => viaC3.next(page(), 'c1')).toThrow('a second time');
    expect(() => viaC3.next(page(), 'c3')).toThrow('a second time');
    expect(() => viaC2.next(page(), 'c2')).toThrow('a second time');
    expect(() => b.next(page(), 'c2')).not.toThrow();
    expect(() => b.next(page(), 'c2').next(page(), 'c2')).toThrow('a second time');
  });

  it('does not count a cursor from the first page as on the way to a page another cursor led to', () => {
    const first = PageWalk.start(undefined);
    first.next(page(), 'c1');
    const other = first.next(page(), 'cX');
    expect(() => other.next(page(), 'c1')).not.toThrow();
  });

  it('stops after ten empty pages in a row, each with a cursor', () => {
    let walk = PageWalk.start(undefined);
    for (let i = 1; i < 10; i++) walk = walk.next([], `e${i}`);
    expect(() => walk.next([], 'e10')).toThrow('10 empty pages in a row');
    expect(() => walk.next([1], 'e10')).not.toThrow();
  });

  it('stops once more pages came again under new cursors than new ones, by the ids of their first and last items', () => {
    const second = PageWalk.start(undefined).next(ids(1, 2), 'c1').next(ids(3), 'c2');
    // Two new pages: a record moved on in the list's order brings one back, and a second.
    const back = second.next(ids(1, 2), 'c3').next(ids(1, 9, 2), 'c4');
    expect(() => back.next(ids(3), 'c5')).toThrow('more pages it gave before, under new cursors, than new ones');
    expect(() => back.next(ids(2, 1), 'c5')).not.toThrow();
    // Only on the way: a page asked for its next page twice is no repeat.
    const first = PageWalk.start(undefined);
    first.next(ids(1, 2), 'c1');
    expect(() => first.next(ids(1, 2), 'c1').next(ids(4), 'c2')).not.toThrow();
  });

  it('takes no page whose first or last item has no id as a repeat: items without one may be alike', () => {
    let walk = PageWalk.start(undefined);
    for (let i = 1; i <= 20; i++) walk = walk.next([{ enabled: true }], `w${i}`);
    expect(() => walk.next([{ id: 1 }, { enabled: true }], 'w21').next([{ id: 1 }, { enabled: true }], 'w22')).not.toThrow();
    // A task's id is its taskId.
    const tasks = PageWalk.start(undefined).next([{ taskId: 't1' }], 'c1').next([{ taskId: 't1' }], 'c2');
    expect(() => tasks.next([{ taskId: 't1' }], 'c3')).toThrow('more pages it gave before');
  });
});

describe('an offset walk', () => {
  it('stops at a page whose first and last items are those of an earlier page once more pages came again than new', () => {
    const second = PageWalk.start(undefined).next([1, 2, 3], undefined);
    const repeated = second.next([1, 2, 3], undefined); // once: items added at the head shift pages
    expect(() => repeated.next([1, 2, 3], undefined)).toThrow('more pages it gave before than new ones');
    expect(() => second.next([1, 9, 4], undefined)).not.toThrow();
    expect(() => second.next([9, 2, 3], undefined)).not.toThrow();
  });

  it('counts a repeat of any earlier page, not only the one before', () => {
    const third = PageWalk.start(undefined).next([1, 2], undefined).next([3, 4], undefined);
    const back = third.next([1, 2], undefined).next([3, 4], undefined); // two new, two back: a list grown by two pages
    expect(() => back.next([1, 2], undefined)).toThrow('more pages it gave before than new ones');
    expect(() => back.next([5, 6], undefined)).not.toThrow();
    // Asking a page for its next page twice is no repeat.
    expect(() => third.next([5, 6], undefined).next([7, 8], undefined)).not.toThrow();
    expect(() => third.next([5, 6], undefined).next([7, 8], undefined)).not.toThrow();
  });

  it('knows an item by its id: the same records read again with a new updatedAt are the same page', () => {
    const page = (at: string) => [{ id: 'a', updatedAt: at }, { id: 'b', updatedAt: at }];
    const walk = PageWalk.start(undefined).next(page('1'), undefined).next(page('2'), undefined);
    expect(() => walk.next(page('3'), undefined)).toThrow('more pages it gave before than new ones');
  });

  it('stops at an empty page that says there is more', () => {
    expect(() => PageWalk.start(undefined).next([], undefined)).toThrow('an empty page with hasMore: true');
  });
});
