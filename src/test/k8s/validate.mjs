// Validates every document of rendered Kubernetes manifests against the Kubernetes and
// prometheus-operator schemas (kubernetes-models). Usage: node validate.mjs rendered.yaml [...]
// Prints one line per document and exits 1 when any document is invalid or of an unknown kind.
import { readFileSync } from "node:fs";
import { parseAllDocuments } from "yaml";

const groups = {
  "v1": "kubernetes-models/v1",
  "apps/v1": "kubernetes-models/apps/v1",
  "autoscaling/v2": "kubernetes-models/autoscaling/v2",
  "policy/v1": "kubernetes-models/policy/v1",
  "networking.k8s.io/v1": "kubernetes-models/networking.k8s.io/v1",
  "batch/v1": "kubernetes-models/batch/v1",
  "monitoring.coreos.com/v1": "@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1",
};

let failures = 0;
for (const file of process.argv.slice(2)) {
  for (const document of parseAllDocuments(readFileSync(file, "utf8"))) {
    const manifest = document.toJS();
    if (!manifest) continue;
    const where = `${file}: ${manifest.kind}/${manifest.metadata?.name}`;
    const module = groups[manifest.apiVersion];
    if (!module) {
      console.log(`UNKNOWN ${where} (${manifest.apiVersion})`);
      failures++;
      continue;
    }
    const models = await import(module);
    const Model = models[manifest.kind];
    if (!Model) {
      console.log(`UNKNOWN ${where}`);
      failures++;
      continue;
    }
    try {
      new Model(manifest).validate();
      console.log(`VALID ${where}`);
    } catch (error) {
      console.log(`INVALID ${where}: ${error.message}`);
      failures++;
    }
  }
}
process.exit(failures === 0 ? 0 : 1);
