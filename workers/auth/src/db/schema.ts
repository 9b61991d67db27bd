// The auth tables (users, login throttling) are declared here.
export {};
