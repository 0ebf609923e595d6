import fp from 'fastify-plugin';
import { LANG_HEADER, answerLanguage, type Envelope, type Language, type MessageKey } from '@isps/contract';
import { envelope, type Params } from './envelope.ts';

declare module 'fastify' {
  interface FastifyRequest {
    readonly lang: Language;
  }
  interface FastifyReply {
    /** A successful envelope with a message localised for the caller. */
    ok<T>(result: T, key?: MessageKey, params?: Params): Envelope<T>;
  }
}

export const i18nPlugin = fp(
  async (app) => {
    app.decorateRequest('lang', {
      getter() {
        const header = this.headers[LANG_HEADER];
        return answerLanguage(Array.isArray(header) ? header[0] : header, this.headers['accept-language']);
      },
    });
    app.decorateReply('ok', function ok<T>(this: { request: { lang: Language } }, result: T, key: MessageKey = 'common.ok', params?: Params) {
      return envelope(this.request.lang, 'ok', result, key, params);
    });
  },
  { name: 'i18n' },
);
