/// The text `photo-feed --help` prints.
package enum Usage {
    /// The text `--help` prints; its keys come from `KeyTable`, as the `?` screen's do.
    package static let text = """
    Usage: photo-feed [options]

    Views Flickr's public photo feed in the terminal: full screen on a terminal,
    plain text or JSON lines otherwise (and when TERM=dumb).

    Source (default: live Flickr):
      --demo                 serve generated feeds from an in-process server on 127.0.0.1
      --tls                  with --demo: serve them over https (TLS, with a test
                             certificate for localhost that the viewer trusts)
      --base-url URL         any server answering services/feeds/photos_public.gne
      --offline              the bundled sample feed, without a network

    Feed:
      --tags TAGS            comma-separated tags (default: "landscape, portrait")
      --tagmode any|all      match any or all tags (default: any)
      --pages N              load N pages, print them and exit
      --watch SECONDS        load the next page every SECONDS
      --timeout SECONDS      give up on a request after SECONDS (default: 10)

    Output:
      --plain                one block per section, one line per photo
      --json                 one JSON object per photo per line
      --verbose              log requests and responses to stderr; in full screen
                             to a log file instead, whose name is printed on exit
      --no-color             no colours and, unless --images asks, no pictures
                             (the same as NO_COLOR=1)
      --images MODE          pictures in full screen: auto, kitty, iterm, sixel,
                             blocks, truecolor, 256 or none (blocks: half blocks,
                             24-bit if COLORTERM says so; truecolor and 256: half
                             blocks at that depth). Default auto: from TERM,
                             TERM_PROGRAM and COLORTERM; none under --no-color or
                             NO_COLOR. Printed output has no pictures.
      -h, --help             show this text

    \(KeyTable.usageSection())

    Exit status: 0 ok, 1 the feed failed, 2 usage error.
    Options take their value as "--opt value" or "--opt=value".
    """
}
