/** The key of the local stand-in of the broadcast (lib/local/event-api.ts): anyone may watch with it, never publish. */
export const LOCAL_OBSERVERS_KEY = 'da2-localobserverskey0000000';
