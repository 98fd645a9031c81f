// @ts-check
/* bgclock: the words of the table's timekeeper claim and of provisional
 * flags (English, Italian), for the table page and the dashboard
 * (docs/protocol.md "The timekeeper is a claim", "Provisional flags"). */

import { withStrings } from "./kit/i18n.js";

export const STRINGS = {
  en: {
    /* the server's refusal (protocol: error code and refusal not_keeper) */
    "ref.not_keeper": "the time of this table is kept by another device ({keeper}): press “Keep the time on this device” first",
    "ref.handed_over": "made before the time went to {keeper}, which has been pressed since: not counted (the director is told)",
    "kp.other": "The time is kept by {name} ({state})",
    "kp.online": "online", "kp.offline": "offline",
    "kp.claim": "Keep the time on this device",
    "kp.claim_ask": "Keep the time on this device? What {name} did before now still counts until this device is pressed; its presses from now on will be refused.",
    "kp.mine": "This device keeps the table's time",
    "kp.taken": "{name} keeps the time now",
    "kp.estimate": "server's estimate",
    "kp.provisional": "⚠ Provisional flag ({name}): the server's estimate while the timekeeper is offline — not a result until it reconnects or the director confirms",
    /* the dashboard */
    "card.keeper_by": "time: {name}", "card.keeper_offline": "time: {name} offline {t}",
    "card.estimate": "server's estimate",
    "card.handover_refused": "time taken over from {name}: {n} of its earlier presses not counted",
    "alert.provisional": "provisional flag", "alert.result_conflict": "result disagrees",
    "alw.provisional": "{name}'s flag is provisional (the timekeeper {k} is offline): mark handled to confirm it",
    "alw.result_conflict": "the tournament holds {told} as the winner, the table's final log says {final}: correct the result",
    "alw.playing": "the match goes on",
    "log.flag_final": "the flag at {t} is final ({how})",
    /* the room display */
    "room.provisional": "⚑ provisional (server's estimate)"
  },
  it: {
    "ref.not_keeper": "il tempo di questo tavolo è tenuto da un altro dispositivo ({keeper}): premi prima «Tieni il tempo su questo dispositivo»",
    "ref.handed_over": "fatta prima del passaggio del tempo a {keeper}, dove si è già premuto: non conta (il direttore è avvisato)",
    "kp.other": "Il tempo è tenuto da {name} ({state})",
    "kp.online": "in linea", "kp.offline": "non in linea",
    "kp.claim": "Tieni il tempo su questo dispositivo",
    "kp.claim_ask": "Tenere il tempo su questo dispositivo? Ciò che {name} ha fatto prima di ora conta ancora finché non si preme su questo dispositivo; da ora i suoi comandi saranno rifiutati.",
    "kp.mine": "Questo dispositivo tiene il tempo del tavolo",
    "kp.taken": "Ora il tempo è tenuto da {name}",
    "kp.estimate": "stima del server",
    "kp.provisional": "⚠ Bandierina provvisoria ({name}): stima del server mentre il dispositivo che tiene il tempo è non in linea — non è un risultato finché non si riconnette o il direttore non la conferma",
    "card.keeper_by": "tempo: {name}", "card.keeper_offline": "tempo: {name} non in linea da {t}",
    "card.estimate": "stima del server",
    "card.handover_refused": "tempo preso da {name}: {n} sue pressioni precedenti non contate",
    "alert.provisional": "bandierina provvisoria", "alert.result_conflict": "risultato in disaccordo",
    "alw.provisional": "la bandierina di {name} è provvisoria (il dispositivo {k} è non in linea): segnala come gestita per confermarla",
    "alw.result_conflict": "il torneo ha {told} come vincitore, il registro finale del tavolo dice {final}: correggi il risultato",
    "alw.playing": "la partita continua",
    "log.flag_final": "la bandierina a {t} è definitiva ({how})",
    "room.provisional": "⚑ provvisoria (stima del server)"
  }
};

/** The page's words with these merged in. */
export const I18N = withStrings(STRINGS);
