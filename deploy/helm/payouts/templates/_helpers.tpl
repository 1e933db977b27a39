{{/* Names and labels shared by every template. */}}
{{- define "payouts.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 50 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 50 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "payouts.selectorLabels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{- define "payouts.labels" -}}
{{ include "payouts.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
{{- end -}}

{{- define "payouts.image" -}}
{{ .Values.image.repository }}:{{ .Values.image.tag | default .Chart.AppVersion }}
{{- end -}}

{{- define "payouts.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{ .Values.serviceAccount.name | default (include "payouts.fullname" .) }}
{{- else -}}
{{ .Values.serviceAccount.name | default "default" }}
{{- end -}}
{{- end -}}

{{- define "payouts.secretName" -}}
{{ .Values.existingSecret | default (printf "%s-secrets" (include "payouts.fullname" .)) }}
{{- end -}}

{{/*
The variables docs/CONFIGURATION.md marks sensitive (test/deploy/helm-chart.int-spec.ts keeps this
list equal to it). They may only come from the Secret, never from `config` or a role's `env`.
*/}}
{{- define "payouts.sensitiveVars" -}}
DATABASE_URL PROVIDER_CLIENT_SECRET PROVIDER_ACCOUNTS LEDGER_ENCRYPTION_KEY LEDGER_PREVIOUS_KEYS DEAD_LETTER_DIGEST_KEY OPS_OPERATORS OIDC_CLIENT_SECRET OTEL_EXPORTER_OTLP_HEADERS
{{- end -}}

{{- define "payouts.refuseSensitive" -}}
{{- $sensitive := splitList " " (include "payouts.sensitiveVars" .root) -}}
{{- range $name, $_ := .env -}}
{{- if has $name $sensitive -}}
{{- fail (printf "%s is sensitive: set it in `secrets` or in the Secret named by `existingSecret`, not in %s" $name $.where) -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/*
deploymentMode=production (the default) makes every pod refuse the development defaults at boot
(DEPLOYMENT_MODE; docs/OPERATIONS.md, "Deployment mode"). The chart refuses to render what those
pods would refuse, every gap in one message. With existingSecret it cannot read the Secret: the
pods check it at boot (exit 78, the list in `kubectl logs`).
*/}}
{{- define "payouts.productionCheck" -}}
{{- if eq .Values.deploymentMode "production" -}}
{{- $missing := list -}}
{{- if not .Values.existingSecret -}}
{{- range $name := list "DATABASE_URL" "LEDGER_ENCRYPTION_KEY" "PROVIDER_CLIENT_SECRET" "DEAD_LETTER_DIGEST_KEY" -}}
{{- if not (index $.Values.secrets $name) -}}
{{- $missing = append $missing (printf "secrets.%s" $name) -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- range $name := list "PROVIDER_CLIENT_ID" "LEDGER_ENCRYPTION_KEY_ID" -}}
{{- if not (index $.Values.config $name) -}}
{{- $missing = append $missing (printf "config.%s" $name) -}}
{{- end -}}
{{- end -}}
{{- range $name := list "PROVIDER_BASE_URL" "PROVIDER_PAYOUT_URL" -}}
{{- $url := index $.Values.config $name | default "" | toString -}}
{{- if or (not $url) (contains ".invalid" $url) -}}
{{- $missing = append $missing (printf "config.%s (the provider's production host, not the placeholder)" $name) -}}
{{- end -}}
{{- end -}}
{{- if $missing -}}
{{- fail (printf "deploymentMode=production needs %s. Pass secrets with --set-string (never in a file in git) or name a Secret with existingSecret; deploymentMode=development runs on the built-in development values instead (never with real money)." (join ", " $missing)) -}}
{{- end -}}
{{- end -}}
{{- end -}}
