// SPDX-License-Identifier: GPL-2.0
/*
 * validate.js - validate Kubernetes manifests offline against the API
 * schemas (kubernetes-models; the ServiceMonitor against the Prometheus
 * operator's CRD schema), then check what a switchstat DaemonSet needs.
 * Usage: node validate.js FILE.yaml...   Exit 0 valid, 1 invalid.
 */
'use strict';
const fs = require('fs');
const yaml = require('js-yaml');
const { Namespace, Service } = require('kubernetes-models/v1');
const { DaemonSet } = require('kubernetes-models/apps/v1');
const { ServiceMonitor } =
  require('@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1');

const models = {
  'v1/Namespace': Namespace,
  'v1/Service': Service,
  'apps/v1/DaemonSet': DaemonSet,
  'monitoring.coreos.com/v1/ServiceMonitor': ServiceMonitor,
};

let errors = 0;
const seen = {};
function bad(where, msg) {
  console.error(`${where}: ${msg}`);
  errors++;
}

function checkDaemonSet(where, ds) {
  const pod = ds.spec.template.spec;
  const c = pod.containers[0];
  const mounts = (c.volumeMounts || []).map((m) => m.mountPath);
  if (pod.hostPID !== true) bad(where, 'hostPID must be true');
  for (const p of ['/sys/kernel/debug', '/sys/kernel/tracing',
    '/sys/kernel/btf', '/lib/modules', '/usr/src', '/sys/fs/cgroup',
    '/var/cache/switchstat']) {
    if (!mounts.includes(p)) bad(where, `no volume mounted at ${p}`);
  }
  // the compiled-BPF cache: a node directory (hostPath), not an emptyDir
  // (mode 0777, which switchstat's cache refuses)
  const cm = (c.volumeMounts || []).find(
    (m) => m.mountPath === '/var/cache/switchstat');
  const cv = cm && (pod.volumes || []).find((v) => v.name === cm.name);
  if (cm && (!cv || !cv.hostPath || cm.readOnly ||
      !['Directory', 'DirectoryOrCreate'].includes(cv.hostPath.type))) {
    bad(where, '/var/cache/switchstat must be a writable hostPath ' +
      'directory (type Directory or DirectoryOrCreate)');
  }
  const sc = c.securityContext || {};
  const caps = (sc.capabilities && sc.capabilities.add) || [];
  if (sc.privileged !== true && !(caps.includes('BPF') &&
      caps.includes('PERFMON'))) {
    bad(where, 'needs privileged or CAP_BPF + CAP_PERFMON');
  }
  const r = c.resources || {};
  if (!r.requests || !r.limits || !r.limits.memory) {
    bad(where, 'resource requests and limits (memory) required');
  }
  const lp = c.livenessProbe && c.livenessProbe.httpGet;
  if (!lp || lp.path !== '/metrics') bad(where, 'liveness probe on /metrics');
  const ann = ds.spec.template.metadata.annotations || {};
  if (ann['prometheus.io/scrape'] !== 'true' || !ann['prometheus.io/port']) {
    bad(where, 'prometheus.io/scrape and prometheus.io/port annotations');
  }
  const args = c.args || [];
  const i = args.indexOf('--listen');
  const port = i >= 0 ? String(args[i + 1]).split(':').pop() : null;
  if (!port || port !== ann['prometheus.io/port'] ||
      !(c.ports || []).some((p) => String(p.containerPort) === port)) {
    bad(where, '--listen port, containerPort and annotation must agree');
  }
}

for (const file of process.argv.slice(2)) {
  let docs;
  try {
    docs = yaml.loadAll(fs.readFileSync(file, 'utf8'));
  } catch (e) {
    bad(file, `YAML: ${e.message}`);
    continue;
  }
  docs.forEach((doc, n) => {
    if (!doc) return;
    const where = `${file}[${n}] ${doc.kind}/${doc.metadata && doc.metadata.name}`;
    const Model = models[`${doc.apiVersion}/${doc.kind}`];
    if (!Model) {
      bad(where, `no schema for ${doc.apiVersion} ${doc.kind}`);
      return;
    }
    try {
      new Model(doc).validate();
    } catch (e) {
      bad(where, `schema: ${e.message}`);
      return;
    }
    seen[doc.kind] = doc;
    if (doc.kind === 'DaemonSet') checkDaemonSet(where, doc);
    console.log(`ok ${where}`);
  });
}
for (const k of ['DaemonSet', 'ServiceMonitor']) {
  if (!seen[k]) bad('manifests', `no valid ${k}`);
}
process.exit(errors ? 1 : 0);
