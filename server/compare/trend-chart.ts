import type { ChartTask } from '../charts/chart-renderer.js';
import type { HealthPoint } from './compare-report.js';

/** The health score of both sides over the site's last runs, as a small line chart. */
export function trendChart(runs: HealthPoint[]): ChartTask {
  const labels = runs.map((r) => r.at.slice(5, 16).replace('T', ' '));
  const line = (label: string, color: string, data: Array<number | null>) => ({ label, data, borderColor: color, backgroundColor: color, tension: 0.2, pointRadius: 3, spanGaps: true });
  return {
    type: 'line',
    data: {
      labels,
      datasets: [line('production', '#6b7280', runs.map((r) => r.baseline)), line('preview', '#2563eb', runs.map((r) => r.preview))],
    },
    options: {
      animation: false,
      plugins: { title: { display: true, text: `Health score, last ${runs.length} run${runs.length === 1 ? '' : 's'}` }, legend: { position: 'bottom' } },
      scales: { y: { min: 0, max: 100 } },
    },
    width: 480,
    height: 200,
    format: 'png',
    quality: 90,
    background: '#ffffff',
  };
}
