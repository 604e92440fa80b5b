import { expect } from 'chai';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { Deployment, StatefulSet } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { ConfigMap, Service } from 'kubernetes-models/v1';
import { createConfig, settingNames } from '../../server/config.js';

const dir = 'deploy/kubernetes';

/** The Kubernetes API's own schemas (kubernetes-models), by apiVersion and kind. */
const models: Record<string, new (data: never) => { validate(): void }> = {
  'apps/v1/Deployment': Deployment,
  'apps/v1/StatefulSet': StatefulSet,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'v1/ConfigMap': ConfigMap,
  'v1/Service': Service,
};

interface Container {
  name: string;
  image: string;
  args: string[];
  ports?: Array<{ name: string; containerPort: number }>;
  envFrom?: Array<{ configMapRef?: { name: string }; secretRef?: { name: string; optional?: boolean } }>;
  resources: { requests: Record<string, string>; limits: Record<string, string> };
  securityContext: { allowPrivilegeEscalation: boolean; readOnlyRootFilesystem: boolean; capabilities: { drop: string[] } };
  startupProbe?: Probe;
  livenessProbe?: Probe;
  readinessProbe?: Probe;
}
interface Probe {
  httpGet?: { path: string; port: string };
}
interface Resource {
  apiVersion: string;
  kind: string;
  metadata: { name: string };
  data?: Record<string, string>;
  spec: {
    selector?: { matchLabels?: Record<string, string> } & Record<string, string>;
    scaleTargetRef?: { kind: string; name: string };
    template?: { metadata: { labels: Record<string, string> }; spec: { terminationGracePeriodSeconds?: number; securityContext: { runAsNonRoot: boolean }; containers: Container[] } };
  };
}

/** `1536Mi`, `3Gi` → MiB. */
const mib = (q: string) => Number(q.replace(/[A-Za-z]+$/, '')) * ({ Mi: 1, Gi: 1024 }[q.replace(/^[\d.]+/, '')] ?? NaN);

describe('deploy/kubernetes, the kustomize base', () => {
  let all: Resource[];
  const one = (kind: string, name: string) => {
    const found = all.find((r) => r.kind === kind && r.metadata.name === name);
    if (!found) throw new Error(`no ${kind} ${name}`);
    return found;
  };

  before(async () => {
    const kustomization = parse(await readFile(path.join(dir, 'kustomization.yaml'), 'utf8')) as { resources: string[]; images: Array<{ name: string }> };
    all = [];
    for (const file of kustomization.resources) {
      for (const doc of parseAllDocuments(await readFile(path.join(dir, file), 'utf8'))) all.push(doc.toJS() as Resource);
    }
    expect(kustomization.images.map((i) => i.name)).to.deep.equal(['ghcr.io/sitelens/sitelens']);
  });

  it('every resource of the kustomization validates against the Kubernetes API schema of its kind', () => {
    expect(all.map((r) => `${r.kind}/${r.metadata.name}`)).to.include.members([
      'ConfigMap/sitelens-config',
      'Deployment/sitelens-api',
      'Service/sitelens-api',
      'HorizontalPodAutoscaler/sitelens-api',
      'PodDisruptionBudget/sitelens-api',
      'Deployment/sitelens-worker',
      'PodDisruptionBudget/sitelens-worker',
      'StatefulSet/sitelens-redis',
      'Service/sitelens-redis',
    ]);
    for (const r of all) {
      const Model = models[`${r.apiVersion}/${r.kind}`];
      expect(Model, `${r.apiVersion} ${r.kind} has a schema here`).to.not.equal(undefined);
      expect(() => new Model(r as never).validate(), `${r.kind}/${r.metadata.name}`).to.not.throw();
    }
  });

  it('the ConfigMap holds only settings the service knows, with values it accepts', () => {
    const data = one('ConfigMap', 'sitelens-config').data ?? {};
    expect(Object.keys(data).filter((k) => !settingNames.includes(k))).to.deep.equal([]);
    expect(() => createConfig(data)).to.not.throw();
  });

  it('the API and worker pods: the roles, probes on the ports the service listens on, a drain that fits the grace period, memory for their renders, a restrictive securityContext', () => {
    const config = createConfig(one('ConfigMap', 'sitelens-config').data ?? {});
    for (const [name, role, port] of [['sitelens-api', 'api', config.PORT], ['sitelens-worker', 'worker', config.WORKER_PORT]] as const) {
      const pod = one('Deployment', name).spec.template;
      if (!pod) throw new Error(`${name} has no pod template`);
      const [c] = pod.spec.containers;
      expect(c.args, name).to.deep.equal([role]);
      const ports = new Map((c.ports ?? []).map((p) => [p.name, p.containerPort]));
      expect([c.startupProbe, c.livenessProbe, c.readinessProbe].map((p) => p?.httpGet?.path), name).to.deep.equal(['/livez', '/livez', '/readyz']);
      for (const probe of [c.startupProbe, c.livenessProbe, c.readinessProbe]) expect(ports.get(probe?.httpGet?.port ?? ''), name).to.equal(port);
      expect((pod.spec.terminationGracePeriodSeconds ?? 30) * 1000, name).to.be.greaterThan(config.SHUTDOWN_DELAY_MS + config.SHUTDOWN_DRAIN_MS);
      // A page takes 100-300 MB; the browser, Node and the spare page about 1 GB more.
      expect(mib(c.resources.limits.memory), name).to.be.at.least(config.BROWSER_CONCURRENCY * 300 + 1024);
      expect(pod.spec.securityContext.runAsNonRoot, name).to.equal(true);
      expect(c.securityContext, name).to.deep.include({ allowPrivilegeEscalation: false, readOnlyRootFilesystem: true });
      expect(c.securityContext.capabilities.drop, name).to.deep.equal(['ALL']);
      expect(c.envFrom, name).to.deep.equal([{ configMapRef: { name: 'sitelens-config' } }, { secretRef: { name: 'sitelens-secrets', optional: true } }]);
    }
  });

  it('the Service, the HPA and the disruption budgets point at the pods they mean', () => {
    const apiPods = one('Deployment', 'sitelens-api').spec.template?.metadata.labels;
    const workerPods = one('Deployment', 'sitelens-worker').spec.template?.metadata.labels;
    expect(apiPods).to.deep.include(one('Service', 'sitelens-api').spec.selector as Record<string, string>);
    expect(one('HorizontalPodAutoscaler', 'sitelens-api').spec.scaleTargetRef).to.deep.include({ kind: 'Deployment', name: 'sitelens-api' });
    expect(apiPods).to.deep.include(one('PodDisruptionBudget', 'sitelens-api').spec.selector?.matchLabels);
    expect(workerPods).to.deep.include(one('PodDisruptionBudget', 'sitelens-worker').spec.selector?.matchLabels);
    // The ConfigMap's REDIS_URL names the StatefulSet's Service.
    expect(one('ConfigMap', 'sitelens-config').data?.REDIS_URL).to.equal('redis://sitelens-redis:6379');
  });
});
