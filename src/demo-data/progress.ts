/**
 * A one-line progress display on stderr (`decisions 120,000 / 1,000,000 (12%) 41,300/s`),
 * redrawn in place on a terminal and printed every 10% otherwise (CI logs).
 */
export function progressLine(label: string, total: number) {
  const started = Date.now();
  const tty = process.stderr.isTTY;
  let lastDecile = -1;
  const render = (done: number) => {
    const seconds = Math.max((Date.now() - started) / 1000, 0.001);
    const percent = total === 0 ? 100 : Math.floor((done / total) * 100);
    return `${label.padEnd(14)} ${done.toLocaleString("en")} / ${total.toLocaleString("en")} (${percent}%) ${Math.round(done / seconds).toLocaleString("en")}/s`;
  };
  return {
    update(done: number) {
      const decile = Math.floor((done / Math.max(total, 1)) * 10);
      if (tty) process.stderr.write(`\r${render(done)}`);
      else if (decile !== lastDecile) process.stderr.write(`${render(done)}\n`);
      lastDecile = decile;
    },
    finish() {
      if (tty) process.stderr.write(`\r${render(total)}\n`);
      else if (lastDecile < 10) process.stderr.write(`${render(total)}\n`);
    },
  };
}
