/** The benchmark's table: one row per figure, printed as Markdown and optionally recorded in BENCHMARKS.md. */
import { readFileSync, writeFileSync } from 'node:fs';

export interface Row {
	/** Section number (1–8). */
	section: string;
	benchmark: string;
	measured: string;
	/** The minimum the interface allows, or the reference the figure is compared with. */
	reference: string;
	/** ✓ target met, ✗ missed, blank: a figure without a target. */
	met?: boolean;
}

function cell(text: string): string {
	return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

export function table(rows: Row[]): string {
	const lines = ['| # | Benchmark | Measured | Minimum / reference | Target met |', '|---|---|---|---|---|'];
	for (const row of rows) {
		const met = row.met === undefined ? '' : row.met ? 'yes' : '**no**';
		lines.push(`| ${row.section} | ${cell(row.benchmark)} | ${cell(row.measured)} | ${cell(row.reference)} | ${met} |`);
	}
	return lines.join('\n');
}

export const START_MARK = '<!-- bench:start -->';
export const END_MARK = '<!-- bench:end -->';

/** Replaces the recorded run in BENCHMARKS.md (between the marks) with `content`. */
export function record(file: string, content: string): void {
	const text = readFileSync(file, 'utf8');
	const start = text.indexOf(START_MARK);
	const end = text.indexOf(END_MARK);
	if (start < 0 || end < start) throw new Error(`${file} has no ${START_MARK} … ${END_MARK} section`);
	writeFileSync(file, `${text.slice(0, start + START_MARK.length)}\n${content}\n${text.slice(end)}`);
}
