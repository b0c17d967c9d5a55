/*
 * One look at a service's health endpoint. The starters poll it while a service starts and the
 * hostile checks ask it after a run; both count only a 200 in time as healthy.
 */

/** Whether `url` answers 200 within `timeoutMs`; a refused, reset or slow answer is `false`. */
export async function answersHealthy(url: string, timeoutMs: number): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    await response.body?.cancel();
    return response.status === 200;
  } catch {
    return false;
  }
}
