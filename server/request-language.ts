/**
 * The language a request asks for, decided as the app decides it (pickLanguage): the `lng`
 * query parameter, then the choice the app keeps in its cookie, then the browser's
 * languages (Accept-Language, by their q-values). The first screens are rendered in it, and
 * a user's e-mail is written in it from registration and each sign-in on.
 */
import Negotiator from 'negotiator';
import type { FastifyRequest } from 'fastify';
import { matchLanguage, type Language } from '../src/contracts/languages.js';
import { LANGUAGE_COOKIE } from '../src/contracts/storage-names.js';

const KEPT_CHOICE = new RegExp(`(?:^|;\\s*)${LANGUAGE_COOKIE}=([a-z]{2})`);

/** The portal language the request names, or null when it names none (nothing usable was sent). */
export function requestLanguage(request: FastifyRequest): Language | null {
  const lng = new URL(request.url, 'http://portal').searchParams.get('lng');
  const kept = KEPT_CHOICE.exec(request.headers.cookie ?? '')?.[1];
  // Most wanted first, by the header's q-values; q=0 means "not this one".
  const accepted = new Negotiator(request.raw).languages();
  return matchLanguage([lng, kept, ...accepted]);
}
