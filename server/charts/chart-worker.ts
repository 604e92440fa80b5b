/**
 * Piscina worker: draws one Chart.js chart on a native canvas. Self-contained (imports only
 * packages) so it loads both under tsx and under Node's own type stripping in a worker thread.
 */
import { createCanvas } from '@napi-rs/canvas';
import { Chart, registerables, type ChartConfiguration, type Plugin } from 'chart.js';
// Registers date-fns as Chart.js's date adapter in this thread: time and timeseries scales need one.
import 'chartjs-adapter-date-fns';

Chart.register(...registerables);
// Wide Unicode coverage: Latin, CJK and colour emoji from the Debian font packages.
Chart.defaults.font.family = "'Liberation Sans', 'DejaVu Sans', 'Noto Sans CJK SC', 'Noto Color Emoji', sans-serif";

export interface ChartTask {
  type: string;
  data: unknown;
  options: Record<string, unknown>;
  width: number;
  height: number;
  format: 'png' | 'jpeg';
  quality: number;
  /** CSS colour, or `transparent` (PNG only). */
  background: string;
}

export type ChartTaskResult = { ok: true; image: Uint8Array } | { ok: false; error: string };

export default async function renderChart(task: ChartTask): Promise<ChartTaskResult> {
  const canvas = createCanvas(task.width, task.height);
  const ctx = canvas.getContext('2d');
  if (task.background !== 'transparent') {
    ctx.fillStyle = '#010203';
    ctx.fillStyle = task.background;
    // The canvas ignores colours it cannot parse; a sentinel shows whether it took this one.
    if (ctx.fillStyle === '#010203' && task.background.toLowerCase() !== '#010203') {
      return { ok: false, error: `background ${JSON.stringify(task.background)} is not a CSS colour` };
    }
  }
  const background: Plugin = {
    id: 'background',
    beforeDraw(chart) {
      if (task.background === 'transparent') return;
      const c = chart.ctx;
      c.save();
      c.globalCompositeOperation = 'destination-over';
      c.fillStyle = task.background;
      c.fillRect(0, 0, chart.width, chart.height);
      c.restore();
    },
  };
  let chart: Chart | undefined;
  try {
    const config = {
      type: task.type,
      data: task.data,
      options: { ...task.options, animation: false, responsive: false, maintainAspectRatio: false, devicePixelRatio: 1, events: [] },
      plugins: [background],
    } as unknown as ChartConfiguration;
    // With animation off, the constructor's first update already draws the chart.
    chart = new Chart(canvas as unknown as HTMLCanvasElement, config);
  } catch (err) {
    chart?.destroy();
    return { ok: false, error: (err as Error).message ?? String(err) };
  }
  // Encode before destroy(): destroy clears the canvas.
  const image = task.format === 'jpeg' ? await canvas.encode('jpeg', task.quality) : await canvas.encode('png');
  chart.destroy();
  return { ok: true, image: new Uint8Array(image.buffer, image.byteOffset, image.byteLength) };
}
