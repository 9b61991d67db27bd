// PLACEHOLDER: its helper replaces this file.
export function AccountPage() {
  return null;
}
