import { neonConfig } from '@neondatabase/serverless';
import ws from 'ws';
import { openPool, type DatabaseSettings } from '#shared/db/database';
import { seedFirstSuperAdmin, type AdminCredentials } from '../../workers/auth/src/db/seed.ts';

/** Local defaults for the first super admin; documented in the README, local only. */
export const LOCAL_ADMIN: AdminCredentials = { username: 'admin', password: 'admin-password' };

/** Runs every module's database set-up step. Today: auth's first super admin. */
export async function runSeeds(settings: DatabaseSettings, admin: AdminCredentials) {
  neonConfig.webSocketConstructor = ws;
  const { db, close } = openPool(settings, {});
  try {
    return { admin: await seedFirstSuperAdmin(db, admin) };
  } finally {
    await close();
  }
}
