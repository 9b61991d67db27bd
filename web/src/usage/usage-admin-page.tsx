// PLACEHOLDER: its helper replaces this file.
export function UsageAdminPage() {
  return null;
}
