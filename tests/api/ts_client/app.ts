// A client app as a user writes it: the types made from openapi.yaml by openapi-typescript
// (api.d.ts), the plain client of openapi-fetch, no cast and no media-type parameter.
import createClient from "openapi-fetch";
import type { components, paths } from "./api";

const client = createClient<paths>({ baseUrl: "http://localhost:8000" });

export async function fanTotal(hand: string): Promise<number> {
  const { data, error } = await client.POST("/v1/rulesets/{ruleset}/score", {
    params: { path: { ruleset: "mcr" } },
    body: { hand, context: { win_type: "discard", discarder: 2 } },
  });
  if (error !== undefined) {
    throw new Error(`${error.code}: ${error.detail}`);
  }
  const total: number = data.fan_total;
  const fans: string[] = data.fans.map((fan) => `${fan.name} ${fan.value}`);
  console.log(fans.join(", "));
  return total;
}

export async function best(hand: string): Promise<number | undefined> {
  const { data } = await client.POST("/v1/rulesets/{ruleset}/waits", {
    params: { path: { ruleset: "mcr" } },
    body: { hand, context: { win_type: "self_draw" } },
  });
  return data?.best?.fan_total;
}

export async function shanten(hand: string): Promise<number | null | undefined> {
  const { data } = await client.POST("/v1/rulesets/{ruleset}/analysis", {
    params: { path: { ruleset: "mcr" } },
    body: { hand, context: { win_type: "self_draw" } },
  });
  return data?.shanten;
}

// The same score drawn as a picture, from its own operation: the SVG document as text.
export async function picture(hand: string): Promise<string | undefined> {
  const { data } = await client.POST("/v1/rulesets/{ruleset}/score/picture", {
    params: { path: { ruleset: "mcr" } },
    body: { hand, context: { win_type: "self_draw" } },
    parseAs: "text",
  });
  return data;
}

// A match hand by hand: each answer's state goes with the next hand; the standings are typed.
type MatchState = components["schemas"]["MatchState"];

async function matchHand(hand: string, state: MatchState | undefined) {
  const { data, error } = await client.POST("/v1/rulesets/{ruleset}/match", {
    params: { path: { ruleset: "mcr" } },
    body: { hands: [{ win: { hand, context: { win_type: "self_draw", winner: 0 } } }], state },
  });
  if (error !== undefined) {
    throw new Error(`${error.code}: ${error.detail}`);
  }
  return data;
}

export async function matchTotals(hands: string[]): Promise<number[]> {
  let state: MatchState | undefined = undefined;
  let totals: number[] = [];
  for (const hand of hands) {
    const data = await matchHand(hand, state);
    state = data.state;
    totals = data.standings.totals;
    const dealer: number | undefined = data.next?.dealer;
    console.log(`next dealer ${dealer}, ranks ${data.standings.ranks.join(" ")}`);
  }
  return totals;
}
