/**
 * The console's only assets, served from its own origin (the policy allows nothing else): one style
 * sheet and one small script that refreshes a live page's content in place. No framework: the
 * pages are drawn on the server, so the browser never holds more than what it shows.
 * @module
 */

export const CONSOLE_CSS = `:root { color-scheme: light dark; --fg: #1d232b; --muted: #5d6876; --line: #d5dbe3; --bg: #fff; --panel: #f5f7fa; --accent: #2f6fdb; --bad: #c9372c; --good: #1f8a4c; }
@media (prefers-color-scheme: dark) { :root { --fg: #e4e8ee; --muted: #9aa5b4; --line: #39414c; --bg: #161a20; --panel: #1f242c; --accent: #6ea0ff; --bad: #ff7a6e; --good: #5fd08d; } }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: var(--bg); }
header { display: flex; gap: 1.5rem; align-items: center; padding: .7rem 1.5rem; border-bottom: 1px solid var(--line); background: var(--panel); }
header strong { font-size: 1rem; }
header nav a { margin-right: 1rem; color: var(--muted); text-decoration: none; }
header nav a.here { color: var(--fg); font-weight: 600; }
main { padding: 1.2rem 1.5rem 3rem; max-width: 72rem; }
h1 { font-size: 1.35rem; margin: .2rem 0 1rem; }
h2 { font-size: 1.05rem; margin: 1.6rem 0 .6rem; }
a { color: var(--accent); }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: .35rem .6rem; border-bottom: 1px solid var(--line); vertical-align: top; }
th { color: var(--muted); font-weight: 500; font-size: .85rem; }
code, .id { font: 12.5px ui-monospace, SFMono-Regular, Menlo, monospace; }
.muted { color: var(--muted); }
.status { font-weight: 600; }
.status-completed, .status-succeeded, .status-delivered { color: var(--good); }
.status-failed, .status-cancelled { color: var(--bad); }
.error { border: 1px solid var(--bad); color: var(--bad); padding: .6rem .8rem; border-radius: 6px; margin: 0 0 1rem; }
.notice { border: 1px solid var(--line); background: var(--panel); padding: .6rem .8rem; border-radius: 6px; margin: 0 0 1rem; }
form.inline { display: inline; }
button { font: inherit; padding: .25rem .7rem; border: 1px solid var(--line); border-radius: 5px; background: var(--panel); color: var(--fg); cursor: pointer; }
button.danger { border-color: var(--bad); color: var(--bad); }
input, select { font: inherit; padding: .25rem .45rem; border: 1px solid var(--line); border-radius: 5px; background: var(--bg); color: var(--fg); }
progress { width: 9rem; vertical-align: middle; }
.chart { max-width: 46rem; margin: .5rem 0 1rem; }
.chart svg { width: 100%; height: auto; }
.forecast-chart .bar, .forecast-chart .column { fill: var(--accent); }
.forecast-chart .track { fill: var(--line); }
.forecast-chart .mark { stroke: var(--fg); }
svg text, svg .label { fill: var(--fg); font-size: 12px; }
svg .axis { stroke: var(--muted); }
svg text.muted { fill: var(--muted); }
.gridline { stroke: var(--line); }
.history-chart .dot { fill: var(--accent); }
.line { fill: none; }
.line.series-0 { stroke: #2f6fdb; } .dot.series-0, .swatch.series-0 { fill: #2f6fdb; }
.line.series-1 { stroke: #d9822b; } .dot.series-1, .swatch.series-1 { fill: #d9822b; }
.line.series-2 { stroke: #1f8a4c; } .dot.series-2, .swatch.series-2 { fill: #1f8a4c; }
.line.series-3 { stroke: #a23fbf; } .dot.series-3, .swatch.series-3 { fill: #a23fbf; }
.line.series-4 { stroke: #c9372c; } .dot.series-4, .swatch.series-4 { fill: #c9372c; }
.band { fill: var(--accent); fill-opacity: .22; }
.median { stroke: var(--accent); fill: none; }
.grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(14rem, 1fr)); gap: .8rem; }
.card { border: 1px solid var(--line); border-radius: 8px; padding: .7rem .9rem; background: var(--panel); }
.card b { display: block; font-size: 1.3rem; }
@media (max-width: 40rem) { header { flex-wrap: wrap; gap: .4rem 1rem; padding: .6rem 1rem; } main { padding: 1rem; } table { display: block; overflow-x: auto; } }
`;

/**
 * Refreshes `<main data-live="ms">` in place from the same address while the tab is visible (the
 * server answers the content alone, and in `x-console-live` the wait before the next: 0 once the page
 * shows a final state, and the refreshes stop). An answer that is not 2xx (a 429 from the service, an
 * error page) or none at all doubles the wait, up to a minute; the next good answer resets it. Each
 * wait starts when the last answer came: a slow service never gets two refreshes at once.
 */
export const CONSOLE_JS = `'use strict';
(() => {
  const main = document.getElementById('main');
  let every = Number(main && main.dataset.live);
  if (!(every > 0)) return;
  const most = Math.max(every, 60000);
  let wait = every;
  const tick = async () => {
    if (document.hidden) return void setTimeout(tick, wait);
    try {
      const res = await fetch(location.href, { headers: { 'x-console-fragment': '1' }, credentials: 'same-origin' });
      if (!res.ok) throw new Error(String(res.status));
      main.innerHTML = await res.text();
      every = Number(res.headers.get('x-console-live'));
      if (!(every > 0)) return void delete main.dataset.live;
      main.dataset.live = String(every);
      wait = every;
    } catch (err) {
      // A 429, an error page, or the console stopped: wait longer before the next try.
      wait = Math.min(wait * 2, most);
    }
    setTimeout(tick, wait);
  };
  setTimeout(tick, wait);
})();
`;
