/**
 * The progress of tasks being waited for: on a terminal a live bar per task (redrawn in place with
 * log-update), otherwise a plain line each time a task's status or subforecast count changes.
 * Written to stderr, so stdout keeps only the results (and stays valid JSON with `--json`); each line
 * is escaped, like every other output line (a task id or status from the service is shown, not obeyed).
 * @module
 */
import type { ForecastProgress } from '../index.js';
import { clockTime, escapeControls, note } from './output.js';

/** How progress is shown: `tty` bars, `plain` lines, or nothing. */
export type ProgressMode = 'tty' | 'plain' | 'none';

/** `auto` is `tty` when stderr is a terminal, else `plain`. */
export function progressMode(option: unknown): ProgressMode {
  if (option === 'tty' || option === 'plain' || option === 'none') return option;
  return process.stderr.isTTY ? 'tty' : 'plain';
}

/**
 * stderr as log-update sees it: a terminal, whose size is read on each frame. A size of 0 (some
 * pseudo-terminals, or stderr forced with `--progress tty` when it is a pipe) counts as 80x24, not
 * as no room at all.
 */
function terminal(): NodeJS.WriteStream {
  const stderr = process.stderr;
  return {
    isTTY: true,
    get columns() {
      return stderr.columns || 80;
    },
    get rows() {
      return stderr.rows || 24;
    },
    write: (chunk: string) => stderr.write(chunk),
    on: () => undefined,
    off: () => undefined,
  } as unknown as NodeJS.WriteStream;
}

/** Terminal width: the full task id fits from this many columns, else its first 8 characters show. */
const FULL_ID_COLUMNS = 110;
const BAR_WIDTH = 20;
const STATUS_WIDTH = 20;

interface Row {
  status: string;
  done: number | undefined;
  planned: number | undefined;
  /** When the task became final (its elapsed time stops there). */
  endedAt: number | undefined;
}

/** The live display of many tasks. */
export class ProgressBoard {
  private readonly rows = new Map<string, Row>();
  private readonly started = performance.now();
  private timer: ReturnType<typeof setInterval> | undefined;
  private render: ((text: string) => void) | undefined;
  private doneRender: (() => void) | undefined;
  /** While reads fail and the SDK retries (an outage it rides out): what to tell the user. */
  private outage: string | undefined;

  private constructor(
    private readonly mode: ProgressMode,
    ids: readonly string[],
  ) {
    for (const id of ids) this.rows.set(id, { status: 'waiting', done: undefined, planned: undefined, endedAt: undefined });
  }

  /** A board for `ids`; in `tty` mode log-update is loaded, and the elapsed times tick every second. */
  static async create(mode: ProgressMode, ids: readonly string[]): Promise<ProgressBoard> {
    const board = new ProgressBoard(mode, ids);
    if (mode === 'tty') {
      const { createLogUpdate } = await import('log-update');
      const update = createLogUpdate(terminal(), { showCursor: false });
      board.render = (text) => update(text);
      board.doneRender = () => update.done();
      board.draw();
      board.timer = setInterval(() => board.draw(), 1000);
      board.timer.unref();
    }
    return board;
  }

  /** The last state seen of each task. */
  get states(): ReadonlyMap<string, { status: string }> {
    return this.rows;
  }

  /**
   * Says that a read failed and is retried in `delayMs`: a line under the bars on a terminal, a line
   * on stderr in plain mode (once per failing stretch, so a long outage is a line, not a flood).
   */
  retrying(e: { error: string; status: number | undefined; delayMs: number }): void {
    const first = this.outage === undefined;
    const retry = `retrying in ${Math.max(1, Math.round(e.delayMs / 1000))} s`;
    // A status is an answer (a 503, a 429): the service is there, and said no for now.
    this.outage = e.status === undefined ? `${e.error}: the service did not answer; ${retry}` : `the service answered ${e.status} (${e.error}); ${retry}`;
    if (this.mode === 'tty') this.draw();
    else if (this.mode === 'plain' && first) note(`${this.outage} (the wait goes on until it answers or --timeout)`);
  }

  /** Takes a progress snapshot of one task. */
  update(p: ForecastProgress): void {
    this.outage = undefined;
    const row = this.rows.get(p.taskId);
    if (!row) return;
    const changed = row.status !== p.status || row.done !== p.completedSubforecastCount || row.planned !== p.plannedSubforecastCount;
    row.status = p.status;
    row.done = p.completedSubforecastCount;
    row.planned = p.plannedSubforecastCount;
    if (p.final && row.endedAt === undefined) row.endedAt = performance.now();
    if (this.mode === 'tty') this.draw();
    else if (this.mode === 'plain' && changed) note(this.text(p.taskId, row));
  }

  /** Stops the display, leaving the last frame on a terminal. */
  finish(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
    if (this.render) this.draw();
    this.doneRender?.();
    this.render = undefined;
    this.doneRender = undefined;
  }

  private draw(): void {
    if (!this.render) return;
    const rows = [...this.rows];
    const room = Math.max(2, (process.stderr.rows || 24) - 1);
    const shown = rows.length <= room ? rows : rows.slice(0, room - 1);
    const lines = shown.map(([id, row]) => this.bar(id, row));
    if (shown.length < rows.length) {
      const rest = rows.slice(shown.length).map(([, row]) => row.status);
      const counts = [...new Set(rest)].map((status) => `${rest.filter((s) => s === status).length} ${status}`).join(', ');
      lines.push(`… and ${rest.length} more: ${counts}`);
    }
    if (this.outage) lines.push(this.outage);
    this.render(lines.map(escapeControls).join('\n'));
  }

  private elapsed(row: Row): string {
    return clockTime((row.endedAt ?? performance.now()) - this.started);
  }

  /** `<id>  [████░░░░]  running_subforecasts  2/5 subforecasts  0:12` */
  private bar(id: string, row: Row): string {
    const share = row.status === 'completed' ? 1 : row.planned ? (row.done ?? 0) / row.planned : 0;
    // Held to 0 … 1: counts from the service may be anything (9 of 5, -3), and a bar never runs past its width.
    const filled = Math.round(Math.min(1, Math.max(0, share || 0)) * BAR_WIDTH);
    const bar = `[${'█'.repeat(filled)}${'░'.repeat(BAR_WIDTH - filled)}]`;
    const shownId = (process.stderr.columns || 80) >= FULL_ID_COLUMNS ? id : id.slice(0, 8);
    return `${shownId}  ${bar}  ${row.status.padEnd(STATUS_WIDTH)}  ${this.counts(row)} subforecasts  ${this.elapsed(row)}`;
  }

  private counts(row: Row): string {
    return row.planned === undefined ? '-/-' : `${row.done ?? 0}/${row.planned}`;
  }

  /** `<id>  running_subforecasts  2/5 subforecasts  0:12` */
  private text(id: string, row: Row): string {
    return `${id}  ${row.status}  ${this.counts(row)} subforecasts  ${this.elapsed(row)}`;
  }
}
