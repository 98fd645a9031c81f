// @ts-check
/* bgclock: the words of the table's timekeeper claim and of provisional
 * flags (English, Italian), for the table page and the dashboard
 * (docs/protocol.md "The timekeeper is a claim", "Provisional flags"). */

import { withStrings } from "./kit/i18n.js";

export const STRINGS = {
  en: {
    /* the server's refusal (protocol: error code and refusal not_keeper) */
    "ref.not_keeper": "the time of this table is kept by another device ({keeper}): press “Ask for the time” first",
    "ref.not_timekeeper": "only the device that keeps the time ({keeper}) answers a request for it",
    "ref.no_request": "that request for the time is no longer waiting",
    "ref.handed_over": "made before the time went to {keeper}, which has been pressed since: not counted (the director is told)",
    "kp.other": "The time is kept by {name} ({state})",
    "kp.online": "online", "kp.offline": "offline",
    "kp.device": "Table {n}",
    "kp.ask": "Ask for the time",
    "kp.ask_again": "Ask again",
    "kp.waiting": "Asked: waiting for {name} to answer",
    "kp.asked": "Another device ({name}) asks to keep this table's time. Hand it over?",
    "kp.yes": "Yes, hand it over", "kp.no": "No",
    "kp.refused": "{name} said no: the time stays there",
    "kp.granted_silent": "{name} was silent too long: this device keeps the time now",
    "kp.granted_director": "The director handed the time to this device",
    "kp.mine": "This device keeps the table's time",
    "kp.taken": "{name} keeps the time now",
    "kp.estimate": "server's estimate",
    "kp.provisional": "⚠ Provisional flag ({name}): the server's estimate while the timekeeper is offline — not a result until it reconnects or the director confirms",
    /* the dashboard */
    "card.keeper_by": "time: {name}", "card.keeper_offline": "time: {name} offline {t}",
    "card.estimate": "server's estimate",
    "card.handover_refused": "time taken over from {name}: {n} of its earlier presses not counted",
    "card.asks": "{name} asks for the time", "card.give": "Hand over the time",
    "card.give_name": "name (optional)",
    "alert.provisional": "provisional flag", "alert.result_conflict": "result disagrees",
    "alw.provisional": "{name}'s flag is provisional (the timekeeper {k} is offline): mark handled to confirm it",
    "alw.result_conflict": "the tournament holds {told} as the winner, the table's final log says {final}: correct the result",
    "alw.playing": "the match goes on",
    "log.flag_final": "the flag at {t} is final ({how})",
    /* the room display */
    "room.provisional": "⚑ provisional (server's estimate)"
  },
  it: {
    "ref.not_keeper": "il tempo di questo tavolo è tenuto da un altro dispositivo ({keeper}): premi prima «Chiedi il tempo»",
    "ref.not_timekeeper": "solo il dispositivo che tiene il tempo ({keeper}) risponde a una richiesta",
    "ref.no_request": "quella richiesta del tempo non è più in attesa",
    "ref.handed_over": "fatta prima del passaggio del tempo a {keeper}, dove si è già premuto: non conta (il direttore è avvisato)",
    "kp.other": "Il tempo è tenuto da {name} ({state})",
    "kp.online": "in linea", "kp.offline": "non in linea",
    "kp.device": "Tavolo {n}",
    "kp.ask": "Chiedi il tempo",
    "kp.ask_again": "Chiedi di nuovo",
    "kp.waiting": "Richiesta inviata: si attende la risposta di {name}",
    "kp.asked": "Un altro dispositivo ({name}) chiede di tenere il tempo di questo tavolo. Passarglielo?",
    "kp.yes": "Sì, passa il tempo", "kp.no": "No",
    "kp.refused": "{name} ha detto no: il tempo resta lì",
    "kp.granted_silent": "{name} è rimasto in silenzio troppo a lungo: ora il tempo è tenuto da questo dispositivo",
    "kp.granted_director": "Il direttore ha passato il tempo a questo dispositivo",
    "kp.mine": "Questo dispositivo tiene il tempo del tavolo",
    "kp.taken": "Ora il tempo è tenuto da {name}",
    "kp.estimate": "stima del server",
    "kp.provisional": "⚠ Bandierina provvisoria ({name}): stima del server mentre il dispositivo che tiene il tempo è non in linea — non è un risultato finché non si riconnette o il direttore non la conferma",
    "card.keeper_by": "tempo: {name}", "card.keeper_offline": "tempo: {name} non in linea da {t}",
    "card.estimate": "stima del server",
    "card.handover_refused": "tempo preso da {name}: {n} sue pressioni precedenti non contate",
    "card.asks": "{name} chiede il tempo", "card.give": "Passa il tempo",
    "card.give_name": "nome (facoltativo)",
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
