print("touchdeck-bench")
