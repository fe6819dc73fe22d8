import { useEffect, useRef, useState } from "react";
import { useRevalidator } from "react-router";
import { splitLocale } from "../i18n/locales";
import { useDeviceReview, type DeviceReview } from "./device-review";
import { fetchDeck, writeDeck } from "./offline-store.client";

/**
 * The review with JavaScript (ADR 117): once the device holds the card the server rendered (its front, at the same
 * version), the review goes on from the cards on the device: the answer and the next card show at once, the grades
 * go in the background. When nothing is due on the device and every grade was answered, the server's page comes back
 * (its summary, the next card's time, the header's count). Without JavaScript none of this runs.
 */
export function useInstantReview(
  owner: string,
  /** The card the server rendered, front side (`id:version`), else null. */
  serverCard: string | null,
  /** Cards graded today before this card, as the server counted them. */
  serverDone: number,
): { on: boolean; review: DeviceReview; doneBefore: number; typed: { key: string; value: string } | null } {
  const [phase, setPhase] = useState<"server" | "device" | "handing-back">("server");
  const [first, setFirst] = useState<string | null>(null);
  const [doneBefore, setDoneBefore] = useState(0);
  // What the learner had typed into the server's card when the device took over: the device's card starts from it.
  const [typed, setTyped] = useState<{ key: string; value: string } | null>(null);
  const review = useDeviceReview(owner, first);
  const { revalidate } = useRevalidator();
  const fetched = useRef(false);
  const [asked, setAsked] = useState(false);

  // Take over from the server's card when the device holds it; a card graded here whose grade is still on its way
  // (a reload right after the grade) gives way to the next one.
  const { loaded, holds, knows } = review;
  // The stored copy may be older than the cards (terms added or edited since): it is asked for afresh once per visit
  // before the device takes over.
  const takeOver = phase === "server" && serverCard !== null && loaded && asked && knows(serverCard);
  if (takeOver) {
    setFirst(holds(serverCard) ? serverCard : null);
    setDoneBefore(serverDone);
    setTyped({ key: serverCard, value: typedSoFar() });
    setPhase("device");
  }

  // Once, ask the server for today's cards.
  const missing = phase === "server" && serverCard !== null && loaded && !asked;
  useEffect(() => {
    if (!missing || fetched.current) return;
    fetched.current = true;
    // Stored, the deck is read again (writeDeck's event).
    void fetchDeck(splitLocale(window.location.pathname).locale).then(async (deck) => {
      if (deck && deck.owner === owner) await writeDeck(deck);
      setAsked(true);
    });
  }, [missing, owner]);

  // Nothing due here and every grade answered: the server's page, fresh.
  const idle = phase === "device" && review.card === null && review.pending === 0 && review.sync.state === "online";
  useEffect(() => {
    if (!idle) return;
    void Promise.resolve()
      .then(() => {
        setPhase("handing-back");
        return revalidate();
      })
      .finally(() => {
        fetched.current = false;
        setFirst(null);
        setPhase("server");
      });
  }, [idle, revalidate]);

  return { on: phase !== "server", review, doneBefore, typed };
}

/** The server's typed-answer field, still on the page while the device takes over (read once, at that moment). */
function typedSoFar(): string {
  const field = document.getElementById("typed-answer");
  return field instanceof HTMLInputElement ? field.value : "";
}
