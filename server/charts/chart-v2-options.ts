/**
 * Chart.js v2 configuration names that Chart.js 4 silently ignores, each with the name to use
 * instead (Chart.js's own 3.x migration guide). A v2 config would otherwise render a chart
 * without its axes settings, legend or title and no word why, so these are refused instead.
 */
export interface V2Option {
  /** Where the v2 name is, as a path into the request body. */
  path: (string | number)[];
  /** What to write instead, in Chart.js 4 terms. */
  use: string;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);

/** The type `horizontalBar` of Chart.js v2. */
export const v2HorizontalBar = { type: 'horizontalBar', use: 'type "bar" with options.indexAxis "y"' } as const;

const chartOptions: Record<string, string> = {
  legend: 'options.plugins.legend',
  title: 'options.plugins.title',
  tooltips: 'options.plugins.tooltip',
  scale: 'options.scales.r (radar and polarArea)',
  cutoutPercentage: 'options.cutout, e.g. "50%"',
  showLines: 'options.showLine',
};

/** Per-scale v2 names; `s` is the scale's v4 path, `options.scales.<id>`. */
const scaleOptions: Record<string, (s: string) => string> = {
  gridLines: (s) => `${s}.grid`,
  scaleLabel: (s) => `${s}.title (text for labelString)`,
  distribution: (s) => `${s}.type "timeseries"`,
};

const tickOptions: Record<string, (s: string) => string> = {
  beginAtZero: (s) => `${s}.beginAtZero`,
  min: (s) => `${s}.min`,
  max: (s) => `${s}.max`,
  suggestedMin: (s) => `${s}.suggestedMin`,
  suggestedMax: (s) => `${s}.suggestedMax`,
  reverse: (s) => `${s}.reverse`,
  fontColor: (s) => `${s}.ticks.color`,
  fontSize: (s) => `${s}.ticks.font.size`,
  fontFamily: (s) => `${s}.ticks.font.family`,
  fontStyle: (s) => `${s}.ticks.font.style`,
};

const datasetOptions: Record<string, string> = { lineTension: 'tension', steppedLine: 'stepped' };

/** Every Chart.js v2 name in a chart body (`type`, `data`, `options`), with its Chart.js 4 replacement. */
export function findV2Options(body: { type?: unknown; data?: unknown; options?: unknown }): V2Option[] {
  const found: V2Option[] = [];
  if (body.type === v2HorizontalBar.type) found.push({ path: ['type'], use: v2HorizontalBar.use });
  const datasets = isObj(body.data) && Array.isArray(body.data.datasets) ? body.data.datasets : [];
  datasets.forEach((ds, i) => {
    if (!isObj(ds)) return;
    for (const [name, use] of Object.entries(datasetOptions)) {
      if (name in ds) found.push({ path: ['data', 'datasets', i, name], use: `data.datasets[${i}].${use}` });
    }
  });
  const options = isObj(body.options) ? body.options : {};
  for (const [name, use] of Object.entries(chartOptions)) if (name in options) found.push({ path: ['options', name], use });
  if (isObj(options.elements) && 'rectangle' in options.elements) found.push({ path: ['options', 'elements', 'rectangle'], use: 'options.elements.bar' });
  const scales = isObj(options.scales) ? options.scales : {};
  for (const axis of ['xAxes', 'yAxes'] as const) {
    if (axis in scales) {
      const id = axis[0];
      found.push({ path: ['options', 'scales', axis], use: `options.scales.${id} (one object per axis id, e.g. {"${id}": {"type": "linear"}})` });
    }
  }
  for (const [id, scale] of Object.entries(scales)) {
    if (id === 'xAxes' || id === 'yAxes' || !isObj(scale)) continue;
    const at = ['options', 'scales', id];
    const v4 = `options.scales.${id}`;
    for (const [name, use] of Object.entries(scaleOptions)) if (name in scale) found.push({ path: [...at, name], use: use(v4) });
    if (isObj(scale.ticks)) {
      for (const [name, use] of Object.entries(tickOptions)) if (name in scale.ticks) found.push({ path: [...at, 'ticks', name], use: use(v4) });
    }
    if (isObj(scale.time) && 'format' in scale.time) found.push({ path: [...at, 'time', 'format'], use: `options.scales.${id}.time.parser` });
  }
  return found;
}
