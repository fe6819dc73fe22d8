import { stemmer as ar } from "@orama/stemmers/arabic";
import { stemmer as bg } from "@orama/stemmers/bulgarian";
import { stemmer as da } from "@orama/stemmers/danish";
import { stemmer as de } from "@orama/stemmers/german";
import { stemmer as el } from "@orama/stemmers/greek";
import { stemmer as en } from "@orama/stemmers/english";
import { stemmer as es } from "@orama/stemmers/spanish";
import { stemmer as fi } from "@orama/stemmers/finnish";
import { stemmer as fr } from "@orama/stemmers/french";
import { stemmer as hu } from "@orama/stemmers/hungarian";
import { stemmer as id } from "@orama/stemmers/indonesian";
import { stemmer as it } from "@orama/stemmers/italian";
import { stemmer as lt } from "@orama/stemmers/lithuanian";
import { stemmer as nl } from "@orama/stemmers/dutch";
import { stemmer as no } from "@orama/stemmers/norwegian";
import { stemmer as pt } from "@orama/stemmers/portuguese";
import { stemmer as ro } from "@orama/stemmers/romanian";
import { stemmer as ru } from "@orama/stemmers/russian";
import { stemmer as sr } from "@orama/stemmers/serbian";
import { stemmer as sv } from "@orama/stemmers/swedish";
import { stemmer as tr } from "@orama/stemmers/turkish";
import { stemmer as uk } from "@orama/stemmers/ukrainian";
import type { Stemmer } from "./cloze";

/** Snowball-family stemmers by study language (ADR 036); languages without one are matched by article and case only. */
const STEMMERS: Record<string, Stemmer> = {
  ar,
  bg,
  da,
  de,
  el,
  en,
  es,
  fi,
  fr,
  hu,
  id,
  it,
  lt,
  nl,
  nb: no,
  nn: no,
  no,
  pt,
  ro,
  ru,
  sr,
  sv,
  tr,
  uk,
};

export const stemmerFor = (language: string): Stemmer | undefined => STEMMERS[language];
