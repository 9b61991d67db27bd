// PLACEHOLDER: its helper replaces this file.
export function LimitsPage() {
  return null;
}
