/**
 * Validation of rendered manifests against the Kubernetes API's schemas: the validators of the npm
 * packages `kubernetes-models` (generated from Kubernetes' OpenAPI spec) and
 * `@kubernetes-models/prometheus-operator` (from the operator's CRDs). Offline: the schemas are in
 * the packages. A kind the chart does not use is refused, so a new kind gets a validator here.
 */
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { Job } from 'kubernetes-models/batch/v1/Job';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { Secret } from 'kubernetes-models/v1/Secret';
import { Service } from 'kubernetes-models/v1/Service';
import { ServiceAccount } from 'kubernetes-models/v1/ServiceAccount';
import { PrometheusRule } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/PrometheusRule';
import { ServiceMonitor } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/ServiceMonitor';

interface Validatable {
  validate(): void;
}
type ModelClass = (new (data: never) => Validatable) & { apiVersion: string; kind: string };

const MODELS: readonly ModelClass[] = [
  Deployment,
  Job,
  NetworkPolicy,
  PodDisruptionBudget,
  ConfigMap,
  Secret,
  Service,
  ServiceAccount,
  PrometheusRule,
  ServiceMonitor,
];

/** The problems of one manifest (empty when it is valid). */
export function validateManifest(manifest: { apiVersion: string; kind: string }): string[] {
  const model = MODELS.find((m) => m.apiVersion === manifest.apiVersion && m.kind === manifest.kind);
  if (!model) return [`no schema for ${manifest.apiVersion} ${manifest.kind}`];
  try {
    new model(manifest as never).validate();
    return [];
  } catch (e) {
    return [e instanceof Error ? e.message : String(e)];
  }
}
