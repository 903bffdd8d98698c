import type { SignedInEnv } from '../../auth/session.ts';
import { Hono } from 'hono';

// Skeleton: the routes arrive with their implementation.
export const adminImagesRoute = new Hono<SignedInEnv>();
