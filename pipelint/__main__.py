from pipelint.cli import main

main()
