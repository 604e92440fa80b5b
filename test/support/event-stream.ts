import { expect } from 'chai';

export interface StreamEvent {
  event: string;
  data: any;
}

/** A server-sent event stream once its headers arrived; `events()` reads it to its end. */
export async function openEvents(url: string, key: string): Promise<{ events(): Promise<StreamEvent[]> }> {
  const res = await fetch(url, { headers: { 'X-API-Key': key, Accept: 'text/event-stream' } });
  expect(res.headers.get('content-type'), res.ok ? undefined : await res.clone().text()).to.match(/^text\/event-stream/);
  return {
    events: async () =>
      (await res.text())
        .split('\n\n')
        .filter((block) => block.startsWith('event: '))
        .map((block) => {
          const [head, data] = block.split('\n');
          return { event: head.slice('event: '.length), data: JSON.parse(data.slice('data: '.length)) };
        }),
  };
}

/** Reads a server-sent event stream to its end: the events in order. */
export async function readEvents(url: string, key: string): Promise<StreamEvent[]> {
  return (await openEvents(url, key)).events();
}
