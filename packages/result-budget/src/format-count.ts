// Numbers for the notes the model reads. Written by hand rather than with toLocaleString, whose
// output depends on the runtime's locale data: the same result must give the same note everywhere.

/** `1234567` → `1,234,567` (integers; a fraction is rounded). */
export function formatCount(value: number): string {
  const rounded = Math.round(value);
  const digits = String(Math.abs(rounded));
  let out = '';
  for (let index = 0; index < digits.length; index++) {
    if (index > 0 && (digits.length - index) % 3 === 0) out += ',';
    out += digits[index];
  }
  return rounded < 0 ? `-${out}` : out;
}

/** A byte count for people: `512 bytes`, `12.3 KB`, `5.2 MB` (1 KB = 1,000 bytes). */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${formatCount(bytes)} bytes`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${value >= 100 ? Math.round(value) : Math.round(value * 10) / 10} ${units[unit]}`;
}

/** `1 item` / `2 items`. */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${formatCount(count)} ${count === 1 ? singular : pluralForm}`;
}
