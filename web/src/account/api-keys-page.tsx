// PLACEHOLDER: its helper replaces this file.
export function ApiKeysPage() {
  return null;
}
