// PLACEHOLDER: its helper replaces this file.
export function UsagePage() {
  return null;
}
