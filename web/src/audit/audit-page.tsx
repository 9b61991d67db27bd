// PLACEHOLDER: its helper replaces this file.
export function AuditPage() {
  return null;
}
